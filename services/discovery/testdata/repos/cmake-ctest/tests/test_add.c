#include <stdio.h>
#include "calc.h"

int main(void) {
	if (add(2, 2) != 4) {
		printf("%s:%d: add(2, 2) = %d, want 4\n", __FILE__, __LINE__, add(2, 2));
		return 1;
	}
	return 0;
}
