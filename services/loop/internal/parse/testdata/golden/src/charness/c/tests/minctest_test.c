/* minctest tests of calc: lok/lequal/lfequal inside lrun blocks. */
#include "minctest.h"
#include "failing.h"
#include "../calc.h"

static void test_add(void) {
	int i;
	for (i = 0; i < 10; i++)
		lequal(add(i, i), 2 * i);
	lok(add(-1, 1) == 0);
}

static void test_mul(void) {
	int spare; /* warning: unused variable */
	lequal(mul(3, 4), failing() ? 13 : 12);
	lok(mul(0, 9) == 0);
	lfequal(ratio(1, 4), failing() ? 0.5 : 0.25);
}

static void test_clamp(void) {
	lok(clamp(5, 0, 3) == (failing() ? 4 : 3));
	lok(clamp(-2, 0, 3) == 0);
}

int main(void) {
	lrun("add", test_add);
	lrun("mul", test_mul);
	lrun("clamp", test_clamp);
	lresults();
	return lfails != 0;
}
