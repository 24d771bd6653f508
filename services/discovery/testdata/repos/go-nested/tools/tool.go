// Package tools holds a helper the maintainers test separately.
package tools

// Double returns twice n.
func Double(n int) int { return 2 * n }
