#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A check returns its line from the test function when it fails. */
#define check(cond) do { if (!(cond)) return __LINE__; } while (0)

static int passed, failed;

static void run(int (*fn)(void), const char *name) {
  int line = fn();
  if (line == 0) {
    passed++;
  } else {
    failed++;
    printf("FAILED: %s (at line %d)\n", name, line);
  }
}

static int broken(void) { return getenv("CASE") && strcmp(getenv("CASE"), "fail") == 0; }

int test_add(void) {
  check(1 + 1 == 2);
  check(2 + 2 == (broken() ? 5 : 4));
  return 0;
}

int test_cmp(void) {
  check(strcmp("a", "b") < 0);
  return 0;
}

int test_len(void) {
  check(strlen("abc") == 3);
  check(strlen("") == (broken() ? 1u : 0u));
  return 0;
}

int main(void) {
  run(test_add, "adds small numbers");
  run(test_cmp, "compares strings");
  run(test_len, "measures lengths");
  printf("\nPASSED: %d\nFAILED: %d\n", passed, failed);
  return failed != 0;
}
