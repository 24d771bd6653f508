// Package calc does arithmetic.
package calc

// Add adds.
func Add(a, b int) int {
	return a + b
}

// Div divides.
func Div(a, b int) int {
	return a / b
}

// At returns xs[i].
func At(xs []int, i int) int {
	return xs[i]
}
