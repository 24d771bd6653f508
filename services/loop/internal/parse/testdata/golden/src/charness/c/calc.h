/* calc: the code the harness tests exercise. */
#ifndef CALC_H
#define CALC_H
int add(int a, int b);
int mul(int a, int b);
int clamp(int v, int lo, int hi);
double ratio(int a, int b);
#endif
