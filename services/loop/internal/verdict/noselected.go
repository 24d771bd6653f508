package verdict

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// RuleNoSelectedTest: a test step narrowed to the tests a selective run
// names (`greenlight verify --test ID`) counted no test. go test exits 0
// when -run matches nothing (so does jest with --passWithNoTests), pytest
// exits 5 when -k deselects everything and 4 for a node id it cannot
// find: a misspelt id is neither a PASS nor a FAIL of the code.
const RuleNoSelectedTest = "no-selected-test"

// noSelectedTest makes a narrowed test step that exited (0 or not) and
// counted no passed, failed or errored test an ERROR naming the ids. A
// build failure counts as an errored test, so it stays a failure; a
// timeout or OOM kill stays what it is.
func noSelectedTest(in StepInput) *glv1.StepResult {
	r, rep := in.Result, in.Report
	switch r.GetStatus() {
	case glv1.StepStatus_STEP_STATUS_OK, glv1.StepStatus_STEP_STATUS_FAILED:
	default:
		return r
	}
	if len(in.Selected) == 0 {
		return r
	}
	if rep != nil && rep.Counts.Passed+rep.Counts.Failed+rep.Counts.Errors > 0 {
		return r
	}
	out := proto.Clone(r).(*glv1.StepResult)
	out.Status = glv1.StepStatus_STEP_STATUS_ERROR
	out.Rule = RuleNoSelectedTest
	out.Reason = fmt.Sprintf("no test matched the selection (%s): the step ran no test, so nothing was verified; "+
		"use an id as greenlight reports it (`pkg.TestName`, `tests/test_x.py::test_y`) or the test's own name", strings.Join(in.Selected, ", "))
	return out
}
