int add(int a, int b) { return a + b; }

int mean(const int *xs, int n) {
	int s = 0;
	for (int i = 0; i < n; i++) s += xs[i];
	return s / n;
}
