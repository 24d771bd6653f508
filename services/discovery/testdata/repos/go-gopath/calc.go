// Package calc predates Go modules: it has no go.mod.
package calc

// Add returns a + b.
func Add(a, b int) int { return a + b }
