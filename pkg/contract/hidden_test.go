package contract

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// A fix run with hidden tests carries their counts (run and rounds), and
// the document still matches the schema; without them they are null.
func TestFixHiddenTestsInTheContract(t *testing.T) {
	run := fixRun()
	run.Metrics.HiddenTests = &glv1.HiddenTests{Failed: 1, Missing: 1, Failing: []string{"tests/test_h.py::test_three"}}
	run.Metrics.BaselineHiddenTests = &glv1.HiddenTests{Failed: 1}
	run.Patches[0].HiddenTests = &glv1.HiddenTests{Passed: 1}
	b, err := Marshal(FromRun(run))
	if err != nil {
		t.Fatal(err)
	}
	validate(t, compiled(t), b)
	doc := string(b)
	for _, want := range []string{`"hidden_tests": {`, `"missing": 1`, `"tests/test_h.py::test_three"`, `"baseline_hidden_tests": {`} {
		if !strings.Contains(doc, want) {
			t.Errorf("the document lacks %s:\n%s", want, doc)
		}
	}
	plain, err := Marshal(FromRun(fixRun()))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(plain), `"hidden_tests": null`) {
		t.Errorf("a run without hidden tests should say hidden_tests null")
	}
}
