package verdict

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// RuleNoSelectedTest: a test step narrowed to the tests a selective run
// names (`greenlight verify --test ID`) finished OK but counted no test.
// go test exits 0 when -run matches nothing (so does jest with
// --passWithNoTests): a misspelt id must not read as a PASS of the test
// the user asked about.
const RuleNoSelectedTest = "no-selected-test"

// noSelectedTest makes a narrowed test step that ran OK and counted no
// passed, failed or errored test an ERROR naming the ids.
func noSelectedTest(in StepInput) *glv1.StepResult {
	r, rep := in.Result, in.Report
	if len(in.Selected) == 0 || r.GetStatus() != glv1.StepStatus_STEP_STATUS_OK {
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
