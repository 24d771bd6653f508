package beta

import "testing"

func TestTwice(t *testing.T) {
	if Twice(3) != 6 {
		t.Fatal("Twice(3) != 6")
	}
}
