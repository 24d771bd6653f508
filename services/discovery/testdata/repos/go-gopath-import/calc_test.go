package calc_test

import (
	"testing"

	// The package's own import path resolves only under $GOPATH/src.
	"example.com/legacy/calc"
)

func TestAdd(t *testing.T) {
	if got := calc.Add(2, 3); got != 5 {
		t.Fatalf("Add(2, 3) = %d, want 5", got)
	}
}

func TestAddNegative(t *testing.T) {
	if got := calc.Add(-2, 1); got != -1 {
		t.Fatalf("Add(-2, 1) = %d, want -1", got)
	}
}
