// Package alpha is a nested module whose test fails: the verdict must say
// FAIL and name it, though the root module's tests pass.
package alpha

// Sum adds a and b (with a bug).
func Sum(a, b int) int { return a - b }
