package engine

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
)

// Verdict rules that change a step's status from what its exit code said
// (StepResult.rule).
const (
	// RuleReportDisagrees: the step exited 0 while its runner's report
	// shows failed or errored tests, or two accounts of the same run
	// disagree on failures. The exit code is the easiest signal for the
	// code under test to forge (a TestMain ending in os.Exit(0), a pytest
	// hook resetting the exit status), so it never outvotes the report.
	RuleReportDisagrees = "report-disagrees"
)

// classifyReportDisagreement fails a step that finished OK while its
// parsed report disagrees: failed or errored tests counted (flaky ones
// are not: they passed on re-run), or report and log at odds. A step is
// OK only when the exit code AND the report agree.
func classifyReportDisagreement(o score.StepOutcome) *glv1.StepResult {
	r, rep := o.Result, o.Report
	if r.GetStatus() != glv1.StepStatus_STEP_STATUS_OK || rep == nil {
		return r
	}
	var why string
	switch bad := rep.Counts.Failed + rep.Counts.Errors; {
	case rep.Disagreement != "":
		why = "the test reports disagree: " + rep.Disagreement
	case rep.HasTests && bad > 0:
		why = fmt.Sprintf("the command exited 0 but its report shows %d failed or errored test(s)", bad)
	default:
		return r
	}
	out := proto.Clone(r).(*glv1.StepResult)
	out.Status = glv1.StepStatus_STEP_STATUS_FAILED
	out.Rule = RuleReportDisagrees
	out.Reason = why
	return out
}
