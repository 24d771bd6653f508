/* CASE=fail switches the tests into their failing mode. */
#ifndef FAILING_H
#define FAILING_H
#include <stdlib.h>
#include <string.h>
static int failing(void) {
	const char *c = getenv("CASE");
	return c != NULL && strcmp(c, "fail") == 0;
}
#endif
