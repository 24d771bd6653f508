// Package route matches URL paths (a fixture whose subtest names contain '/').
package route

import "strings"

// Match reports whether path starts with prefix.
func Match(prefix, path string) bool { return strings.HasPrefix(path, prefix) }

// Segment returns the i-th path segment.
func Segment(path string, i int) string {
	return strings.Split(strings.Trim(path, "/"), "/")[i]
}
