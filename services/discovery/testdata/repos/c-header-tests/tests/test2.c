#include <stdio.h>
#include "hash.h"

int main(void) { printf("%u\n", hash("")); return 0; }
