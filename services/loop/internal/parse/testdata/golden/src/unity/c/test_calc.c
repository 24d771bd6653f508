/* Unity tests of calc; CASE=fail makes test_mul fail. */
#include <stdlib.h>
#include <string.h>
#include "unity.h"
#include "calc.h"

void setUp(void) {}
void tearDown(void) {}

static int failing(void) {
	const char *c = getenv("CASE");
	return c != NULL && strcmp(c, "fail") == 0;
}

static void test_add(void) { TEST_ASSERT_EQUAL_INT(4, add(2, 2)); }

static void test_mul(void) { TEST_ASSERT_EQUAL_INT(failing() ? 13 : 12, mul(3, 4)); }

static void test_ignored(void) { TEST_IGNORE_MESSAGE("not on this platform"); }

int main(void) {
	UNITY_BEGIN();
	RUN_TEST(test_add);
	RUN_TEST(test_mul);
	RUN_TEST(test_ignored);
	return UNITY_END();
}
