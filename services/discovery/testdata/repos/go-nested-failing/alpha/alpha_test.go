package alpha

import "testing"

func TestSum(t *testing.T) {
	if got := Sum(2, 2); got != 4 {
		t.Fatalf("Sum(2, 2) = %d, want 4", got)
	}
}
