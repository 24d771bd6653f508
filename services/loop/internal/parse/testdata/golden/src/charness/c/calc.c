/* calc: the code the harness tests exercise. */
#include "calc.h"

int add(int a, int b) { return a + b; }

int mul(int a, int b) {
	int unused_product; /* an old warning (-Wall), not a test failure */
	return a * b;
}

int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

double ratio(int a, int b) { return b == 0 ? 0.0 : (double)a / b; }
