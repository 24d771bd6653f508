// Package beta is a nested module whose tests pass; they run although
// alpha's failed before them.
package beta

// Twice returns 2n.
func Twice(n int) int { return 2 * n }
