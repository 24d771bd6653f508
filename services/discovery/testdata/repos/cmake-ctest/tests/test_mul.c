#include <stdio.h>
#include "calc.h"

int main(void) {
	if (mul(3, 4) != 12) {
		printf("%s:%d: mul(3, 4) = %d, want 12\n", __FILE__, __LINE__, mul(3, 4));
		return 1;
	}
	return 0;
}
