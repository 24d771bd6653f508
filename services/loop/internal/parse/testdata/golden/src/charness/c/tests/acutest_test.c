/* acutest tests of calc; CASE=fail fails two checks of test_mul and one
 * of test_clamp, and crashes test_crash. */
#include <signal.h>
#include "acutest.h"
#include "failing.h"
#include "../calc.h"

static void test_add(void) {
	TEST_CHECK(add(2, 2) == 4);
	TEST_CHECK(add(-1, 1) == 0);
}

static void test_mul(void) {
	int got = mul(3, 4), want = failing() ? 13 : 12;
	TEST_CHECK(got == want);
	TEST_MSG("Expected: %d", want);
	TEST_MSG("Produced: %d", got);
	TEST_CHECK_(mul(0, 9) == (failing() ? 1 : 0), "mul(0, 9) is %d", mul(0, 9));
}

static void test_clamp(void) {
	TEST_CHECK(clamp(5, 0, 3) == (failing() ? 4 : 3));
}

static void test_crash(void) {
	if (failing())
		raise(SIGSEGV);
	TEST_CHECK(ratio(1, 2) > 0.4);
}

TEST_LIST = {
	{"add", test_add},
	{"mul", test_mul},
	{"clamp", test_clamp},
	{"crash", test_crash},
	{NULL, NULL}
};
