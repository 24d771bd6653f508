package engine

import (
	"slices"
	"testing"
	"testing/fstest"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
)

// TestBaselineTestPathsComeFromWhatTheRunnerCollected checks that the
// grader's test files are the files the baseline's tests came from, by
// pytest node id, JavaScript file prefix, unittest dotted id and recorded
// file, whatever the files are called, and only files the tree holds.
func TestBaselineTestPathsComeFromWhatTheRunnerCollected(t *testing.T) {
	tree := fstest.MapFS{
		"checks/verify_parser.py": {}, "lib/test_tools.py": {}, "web/src/sum.check.js": {},
		"tests/cases.py": {}, "pkg/a_test.go": {}, "src/app.py": {},
	}
	out := func(workdir string, rep *parse.StepReport) score.StepOutcome {
		return score.StepOutcome{Step: &glv1.Step{Workdir: workdir}, Report: rep}
	}
	outcomes := []score.StepOutcome{
		out("", &parse.StepReport{HasTests: true, Inventory: []parse.Outcome{
			{ID: "checks/verify_parser.py::test_x"}, {ID: "tests.cases.Case.test_y"}, {ID: "nowhere/gone.py::test_z"},
		}}),
		out("web", &parse.StepReport{HasTests: true, Inventory: []parse.Outcome{{ID: "src/sum.check.js > sum > adds"}}}),
		out("", &parse.StepReport{HasTests: true, Tests: []parse.Test{{ID: "example.com/m/pkg.TestA", File: "pkg/a_test.go"}}}),
		// A failing test's File is where the failure was located: the code
		// under test, which a fix must be free to change.
		out("", &parse.StepReport{HasTests: true, Tests: []parse.Test{{ID: "tests/cases.py::test_q", File: "src/app.py"}}}),
		out("", &parse.StepReport{HasTests: false, Tests: []parse.Test{{File: "src/app.py"}}}),
	}
	got := baselineTestPaths(outcomes, tree)
	want := []string{"checks/verify_parser.py", "tests/cases.py", "web/src/sum.check.js"}
	if !slices.Equal(got, want) {
		t.Errorf("baselineTestPaths = %q, want %q", got, want)
	}
}
