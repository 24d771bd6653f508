package calc

import (
	"os"
	"testing"
	"time"
)

func TestAdd(t *testing.T) {
	if got := Add(1, 2); got != 3 {
		t.Errorf("Add(1, 2) = %d, want 3", got)
	}
}

func TestTable(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b int
		want int
	}{{"small", 1, 1, 2}, {"big", 100, 200, 300}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Log("checking", tc.name)
			if got := Add(tc.a, tc.b); got != tc.want {
				t.Fatalf("Add(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

func TestSkipped(t *testing.T) {
	t.Skip("not on this platform")
}

func TestMode(t *testing.T) {
	switch os.Getenv("CASE") {
	case "fail":
		if got := Add(2, 2); got != 5 {
			t.Errorf("Add(2, 2) = %d, want 5", got)
		}
	case "panic":
		_ = At([]int{1, 2, 3}, 5)
	case "sleep":
		time.Sleep(10 * time.Second)
	}
}
