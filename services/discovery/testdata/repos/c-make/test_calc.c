/* Unity-style output: FILE:LINE:TEST:PASS|FAIL, then the summary. */
#include <stdio.h>
#include "calc.h"

static int tests, failures;

#define CHECK(name, expr) do { tests++; \
	if (expr) printf("%s:%d:%s:PASS\n", __FILE__, __LINE__, name); \
	else { failures++; printf("%s:%d:%s:FAIL: %s\n", __FILE__, __LINE__, name, #expr); } } while (0)

int main(void) {
	CHECK("test_add", add(2, 2) == 4);
	CHECK("test_mul", mul(3, 4) == 12);
	printf("-----------------------\n%d Tests %d Failures 0 Ignored\n%s\n", tests, failures, failures ? "FAIL" : "OK");
	return failures != 0;
}
