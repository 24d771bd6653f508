// Package calc is GOPATH-era code: no go.mod, its import path in the
// canonical import comment.
package calc // import "example.com/legacy/calc"

// Add returns a + b.
func Add(a, b int) int { return a + b }
