/* Another hand-rolled style: `N tests, P passed, F failed` (sds's
 * testhelp.h prints this shape) and a nonzero exit on failure. */
#include <stdio.h>
#include "failing.h"
#include "../calc.h"

static int tests, failed;

#define check(descr, cond) do { \
	tests++; \
	printf("%d - %s: ", tests, descr); \
	if (cond) printf("PASSED\n"); else { printf("FAILED\n"); failed++; } \
} while (0)

int main(void) {
	check("add", add(1, 2) == 3);
	check("mul", mul(2, 5) == (failing() ? 11 : 10));
	check("clamp", clamp(9, 0, 3) == 3);
	printf("%d tests, %d passed, %d failed\n", tests, tests - failed, failed);
	return failed != 0;
}
