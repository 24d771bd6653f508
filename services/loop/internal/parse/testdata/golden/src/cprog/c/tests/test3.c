#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
  int count = getenv("CASE") && strcmp(getenv("CASE"), "fail") == 0 ? 99 : 100;
  assert(count == 100);
  printf("ok\n");
  return 0;
}
