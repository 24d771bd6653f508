#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
  int broken = getenv("CASE") && strcmp(getenv("CASE"), "fail") == 0;
  printf("%s\n", broken ? "olleh" : "hello");
  return 0;
}
