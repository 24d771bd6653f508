/* Check tests of calc; CASE=fail fails test_mul and crashes test_crash. */
#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include "failing.h"
#include "../calc.h"

START_TEST(test_add) {
	ck_assert_int_eq(add(2, 2), 4);
}
END_TEST

START_TEST(test_mul) {
	ck_assert_int_eq(mul(3, 4), (failing() ? 13 : 12));
}
END_TEST

START_TEST(test_clamp) {
	ck_assert_msg(clamp(5, 0, 3) == 3, "clamp(5, 0, 3) was %d", clamp(5, 0, 3));
}
END_TEST

START_TEST(test_crash) {
	if (failing())
		raise(SIGSEGV);
	ck_assert(ratio(1, 2) > 0.4);
}
END_TEST

static Suite *calc_suite(void) {
	Suite *s = suite_create("calc");
	TCase *core = tcase_create("core");
	TCase *edge = tcase_create("edge");
	tcase_add_test(core, test_add);
	tcase_add_test(core, test_mul);
	tcase_add_test(edge, test_clamp);
	tcase_add_test(edge, test_crash);
	suite_add_tcase(s, core);
	suite_add_tcase(s, edge);
	return s;
}

int main(void) {
	SRunner *sr = srunner_create(calc_suite());
	int failed;
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
