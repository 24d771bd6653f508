/* A header-only library: nothing to build but its tests. */
static inline unsigned hash(const char *s) {
	unsigned h = 5381;
	while (*s) h = h * 33 + (unsigned char)*s++;
	return h;
}
