package provider

import (
	"fmt"
	"strings"
	"testing"
)

// TestCutMiddle checks that long text keeps its head and its tail with a
// marker saying how much was cut.
func TestCutMiddle(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&b, "log line %d\n", i)
	}
	s := b.String()
	got := CutMiddle(s, 3000)
	if len(got) > 3100 {
		t.Errorf("cut to %d bytes", len(got))
	}
	for _, want := range []string{"log line 1\n", "log line 2000\n", "bytes cut"} {
		if !strings.Contains(got, want) {
			t.Errorf("cut text lacks %q", want)
		}
	}
	if short := "short\n"; CutMiddle(short, 100) != short {
		t.Errorf("short text changed")
	}
}

// TestUserPromptEvidence checks that the evidence is rendered verbatim:
// the error lines of a long log's end survive the cut, and feedback from
// the previous attempt is shown.
func TestUserPromptEvidence(t *testing.T) {
	req := request(3)
	req.Feedback = "patch refused (test-edit): tests/test_calc.py: existing test files may not be edited"
	req.LogTail = strings.Repeat("noise\n", 10000) + "E   ZeroDivisionError: division by zero\n"
	got := userPrompt(req)
	for _, want := range []string{"Attempt 3", req.Feedback, "E   ZeroDivisionError: division by zero", "bytes cut",
		"| 1 | tests/test_calc.py:4 | test_assertion | tests/test_calc.py::test_add |", "Files changed by the change under verification: calc.py"} {
		if !strings.Contains(got, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	if len(got) > 20000 {
		t.Errorf("prompt is %d bytes", len(got))
	}
}
