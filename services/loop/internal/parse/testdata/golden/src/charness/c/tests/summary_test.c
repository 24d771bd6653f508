/* A hand-rolled test program that prints only its tallies, the way many
 * small C libraries do, and exits 0 even when checks fail (CASE=fail). */
#include <stdio.h>
#include "failing.h"
#include "../calc.h"

static int g_failed, g_passed;

#define TEST(A) do { \
	printf("%d %-40s-", __LINE__, #A); \
	if (A) { puts(" OK"); g_passed++; } \
	else { puts(" FAIL"); g_failed++; } \
} while (0)

int main(void) {
	TEST(add(2, 2) == 4);
	TEST(mul(3, 4) == (failing() ? 13 : 12));
	TEST(clamp(5, 0, 3) == (failing() ? 4 : 3));
	TEST(ratio(1, 2) == 0.5);
	TEST(clamp(-1, 0, 3) == (failing() ? 1 : 0));
	printf("Tests failed: %d\n", g_failed);
	printf("Tests passed: %d\n", g_passed);
	return 0;
}
