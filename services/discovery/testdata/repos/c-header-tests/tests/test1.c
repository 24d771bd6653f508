#include <stdio.h>
#include "hash.h"

int main(void) { printf("%u\n", hash("a")); return 0; }
