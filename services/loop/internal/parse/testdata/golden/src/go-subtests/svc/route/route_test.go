package route

import (
	"os"
	"testing"
	"time"
)

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		prefix, path string
		want         bool
	}{
		{"/api/v1", "/api/v1/users", true},
		{"/api/v2", "/api/v2/users", true},
		{"/static", "/api/v1", false},
	} {
		// Subtest names contain '/': "TestMatch//api/v1/users".
		t.Run(tc.path, func(t *testing.T) {
			want := tc.want
			if os.Getenv("CASE") == "fail" && tc.prefix == "/api/v2" {
				want = false // CASE=fail: a wrong expectation
			}
			if got := Match(tc.prefix, tc.path); got != want {
				t.Errorf("Match(%q, %q) = %v, want %v", tc.prefix, tc.path, got, want)
			}
		})
	}
}

func TestSegment(t *testing.T) {
	t.Run("a/b", func(t *testing.T) {
		t.Run("first", func(t *testing.T) {
			if got := Segment("/a/b", 0); got != "a" {
				t.Errorf("got %q", got)
			}
		})
		t.Run("out/of/range", func(t *testing.T) {
			switch os.Getenv("CASE") {
			case "panic":
				_ = Segment("/a/b", 5)
			case "exit":
				os.Exit(3)
			case "sleep":
				time.Sleep(10 * time.Second)
			}
		})
	})
}

func TestParallel(t *testing.T) {
	for _, name := range []string{"x/1", "x/2"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			time.Sleep(10 * time.Millisecond)
		})
	}
}

func TestLast(t *testing.T) {}
