package util

import "testing"

func TestUpper(t *testing.T) {
	if Upper("a") != "A" {
		t.Fatal("bad")
	}
}

func TestLower(t *testing.T) {
	if Lower("A") != "a" {
		t.Fatal("bad")
	}
}
