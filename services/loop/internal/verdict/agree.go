package verdict

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Step rules that record themselves in StepResult.rule.
const (
	// RuleReportDisagrees: the step exited 0 while its runner's report
	// shows failed or errored tests, or two accounts of the same run
	// disagree on failures. The exit code is the easiest signal for the
	// code under test to forge (a TestMain ending in os.Exit(0), a pytest
	// hook resetting the exit status), so it never outvotes the report.
	RuleReportDisagrees = "report-disagrees"
)

// reportDisagrees fails a step that finished OK while its parsed report
// disagrees: failed or errored tests counted (flaky ones are not: they
// passed on re-run), or report and log at odds. A step is OK only when
// the exit code AND the report agree.
func reportDisagrees(in StepInput) *glv1.StepResult {
	r, rep := in.Result, in.Report
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

// RuleToolAbsent: the step's log says a build tool it calls (a compiler, a
// build system, an interpreter) was not found. The step ran in an image
// without it, so whatever it exited with says nothing about the code: a
// script that prints "gcc: command not found" 32 times and exits 0 is no
// PASS, and its failure is no FAIL of the code either.
const RuleToolAbsent = "tool-absent"

// toolAbsent makes a step that ran (OK or FAILED) an ERROR when its log
// names build tools that were not found, naming them and the image.
func toolAbsent(in StepInput) *glv1.StepResult {
	r, rep := in.Result, in.Report
	st := r.GetStatus()
	if rep == nil || len(rep.MissingTools) == 0 || (st != glv1.StepStatus_STEP_STATUS_OK && st != glv1.StepStatus_STEP_STATUS_FAILED) {
		return r
	}
	image := r.GetImage()
	if image == "" {
		image = in.Step.GetImage()
	}
	out := proto.Clone(r).(*glv1.StepResult)
	out.Status = glv1.StepStatus_STEP_STATUS_ERROR
	out.Rule = RuleToolAbsent
	out.Reason = fmt.Sprintf("%s not found in the image %s: the step calls a tool its image lacks (exit %d says nothing about the code); "+
		"run it in an image that has it (greenlight.yaml image:, or a toolchain the step's files declare)",
		strings.Join(rep.MissingTools, ", "), image, r.GetExitCode())
	return out
}
