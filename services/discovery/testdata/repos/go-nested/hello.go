// Package hello greets people.
package nested

// Greet returns a greeting for name.
func Greet(name string) string {
	return "hello, " + name
}
