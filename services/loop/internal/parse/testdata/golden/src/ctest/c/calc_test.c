#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int add(int a, int b);
int mean(const int *xs, int n);

static const char *mode(void) {
	const char *m = getenv("CASE");
	return m ? m : "";
}

int main(int argc, char **argv) {
	const char *t = argc > 1 ? argv[1] : "";
	int fail = strcmp(mode(), "fail") == 0;
	if (strcmp(t, "add") == 0) {
		int want = fail ? 5 : 4;
		if (add(2, 2) != want) {
			fprintf(stderr, "calc_test.c:%d: add(2, 2) = %d, want %d\n", __LINE__, add(2, 2), want);
			return 1;
		}
	} else if (strcmp(t, "mean") == 0) {
		int xs[] = {2, 4};
		printf("mean = %d\n", mean(xs, 2));
	} else if (strcmp(t, "parse") == 0) {
		printf("parsed 42\n");
	} else if (strcmp(t, "crash") == 0) {
		if (fail) {
			int *p = NULL;
			return *p;
		}
	} else if (strcmp(t, "slow") == 0) {
		if (fail) sleep(5);
	} else if (strcmp(t, "skip") == 0) {
		printf("not on this platform\n");
		return 77;
	}
	return 0;
}
