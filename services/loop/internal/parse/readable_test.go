package parse

import (
	"os"
	"strings"
	"testing"
)

func TestReadableRendersGoTestJSONAsText(t *testing.T) {
	raw, err := os.ReadFile("testdata/golden/go-json/sub-fail.log")
	if err != nil {
		t.Fatal(err)
	}
	got := Readable(string(raw))
	if strings.Contains(got, `"Action"`) {
		t.Fatalf("events left in the text:\n%s", got)
	}
	for _, want := range []string{"--- FAIL: TestMatch", "route_test.go:25: Match(", "FAIL"} {
		if !strings.Contains(got, want) {
			t.Errorf("text lacks %q:\n%s", want, got)
		}
	}
	plain := "FAILED tests/test_a.py::test_b - assert 1 == 2\n"
	if Readable(plain) != plain {
		t.Error("a log without events changed")
	}
}
