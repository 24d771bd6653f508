package util

import "fmt"

// Show prints n.
func Show(n int) {
	fmt.Printf("%s\n", n)
}
