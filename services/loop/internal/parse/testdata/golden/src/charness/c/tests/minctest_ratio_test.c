/* A second minctest program: several programs run in one step. */
#include "minctest.h"
#include "failing.h"
#include "../calc.h"

static void test_ratio(void) {
	lfequal(ratio(1, 2), 0.5);
	lfequal(ratio(3, 0), 0.0);
	lok(ratio(2, 1) > 1.5);
}

int main(void) {
	lrun("ratio", test_ratio);
	lresults();
	return lfails != 0;
}
