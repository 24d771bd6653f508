package warm

import "testing"

func TestUse(t *testing.T) {
	if len(Use) == 0 {
		t.Fatal("nothing referenced")
	}
}
