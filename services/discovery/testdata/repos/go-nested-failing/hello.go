// Package hello greets people.
package multi

// Greet returns a greeting for name.
func Greet(name string) string {
	return "hello, " + name
}
