package multi

import "testing"

func TestGreet(t *testing.T) {
	if got := Greet("gopher"); got != "hello, gopher" {
		t.Fatalf("Greet = %q", got)
	}
}
