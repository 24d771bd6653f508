/* cmocka tests of calc; CASE=fail fails test_mul and test_clamp and
 * crashes test_crash. */
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "failing.h"
#include "../calc.h"

static void test_add(void **state) {
	(void)state;
	assert_int_equal(add(2, 2), 4);
}

static void test_mul(void **state) {
	(void)state;
	assert_int_equal(mul(3, 4), failing() ? 13 : 12);
}

static void test_clamp(void **state) {
	(void)state;
	assert_true(clamp(5, 0, 3) == (failing() ? 4 : 3));
}

static void test_crash(void **state) {
	(void)state;
	if (failing())
		raise(SIGSEGV);
	assert_true(ratio(1, 2) > 0.4);
}

static void test_wide(void **state) {
	(void)state;
	skip();
}

int main(void) {
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_mul),
		cmocka_unit_test(test_clamp),
		cmocka_unit_test(test_crash),
		cmocka_unit_test(test_wide),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
