/* The same tallies as summary_test.c, printing only the failed checks
 * (`LINE EXPR - FAILED`, parson's TEST macro since 2021); exits 0. */
#include <stdio.h>
#include "failing.h"
#include "../calc.h"

static int g_failed, g_passed;

#define TEST(A) do { \
	if (A) { \
		g_passed++; \
	} else { \
		printf("%d %-72s - FAILED\n", __LINE__, #A); \
		g_failed++; \
	} \
} while (0)

int main(void) {
	TEST(add(2, 2) == 4);
	TEST(mul(7, 6) == (failing() ? 43 : 42));
	TEST(clamp(4, 0, 3) == 3);
	printf("Tests failed: %d\n", g_failed);
	printf("Tests passed: %d\n", g_passed);
	return 0;
}
