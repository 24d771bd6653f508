/* greatest tests of calc: two suites, a skip; CASE=fail fails two tests. */
#include "greatest.h"
#include "failing.h"
#include "../calc.h"

TEST add_small(void) {
	ASSERT_EQ(4, add(2, 2));
	PASS();
}

TEST mul_table(void) {
	ASSERT_EQ_FMT(failing() ? 13 : 12, mul(3, 4), "%d");
	PASS();
}

TEST clamp_high(void) {
	ASSERT(clamp(5, 0, 3) == (failing() ? 4 : 3));
	PASS();
}

TEST clamp_wide(void) {
	SKIPm("wide ints are not supported");
}

SUITE(arith) {
	RUN_TEST(add_small);
	RUN_TEST(mul_table);
}

SUITE(bounds) {
	RUN_TEST(clamp_high);
	RUN_TEST(clamp_wide);
}

GREATEST_MAIN_DEFS();

int main(int argc, char **argv) {
	GREATEST_MAIN_BEGIN();
	RUN_SUITE(arith);
	RUN_SUITE(bounds);
	GREATEST_MAIN_END();
}
