package verdict

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// TestReportDisagreesFailsAnExitZeroTheReportContradicts checks rule
// report-disagrees: a step that exited 0 fails when its report counts
// failed or errored tests or two reports disagree; flaky tests, a report
// without tests and a step that did not finish OK are left alone.
func TestReportDisagreesFailsAnExitZeroTheReportContradicts(t *testing.T) {
	ok := &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_OK}
	cases := []struct {
		name   string
		result *glv1.StepResult
		report *parse.StepReport
		reason string // "": unchanged
	}{
		{"a failed test", ok, &parse.StepReport{HasTests: true, Counts: parse.Counts{Passed: 3, Failed: 1}}, "exited 0 but its report shows 1 failed or errored test(s)"},
		{"an errored test", ok, &parse.StepReport{HasTests: true, Counts: parse.Counts{Errors: 2}}, "shows 2 failed or errored"},
		{"reports disagree", ok, &parse.StepReport{Disagreement: "the log says 2 failed, pytest.xml 0"}, "the test reports disagree: the log says 2 failed"},
		{"all passed", ok, &parse.StepReport{HasTests: true, Counts: parse.Counts{Passed: 3}}, ""},
		{"failures but no tests parsed", ok, &parse.StepReport{Counts: parse.Counts{Failed: 1}}, ""},
		{"no report", ok, nil, ""},
		{"already failed", &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1},
			&parse.StepReport{HasTests: true, Counts: parse.Counts{Failed: 1}}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := reportDisagrees(StepInput{Step: &glv1.Step{Name: "test"}, Result: c.result, Report: c.report})
			if c.reason == "" {
				if got != c.result {
					t.Fatalf("changed: %v", got)
				}
				return
			}
			if got.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED || got.GetRule() != RuleReportDisagrees || !strings.Contains(got.GetReason(), c.reason) {
				t.Fatalf("status %s rule %q reason %q; want FAILED %s with %q", got.GetStatus(), got.GetRule(), got.GetReason(), RuleReportDisagrees, c.reason)
			}
			if got.GetExitCode() != c.result.GetExitCode() {
				t.Errorf("exit code %d, want the step's %d kept", got.GetExitCode(), c.result.GetExitCode())
			}
		})
	}
}

// TestToolAbsentIsAnErrorWhateverTheExit checks rule tool-absent: a step
// whose log names build tools that were not found is an ERROR naming them
// and the image, whether it exited 0 or failed; a step that did not run
// to an exit (timed out, skipped) is left alone.
func TestToolAbsentIsAnErrorWhateverTheExit(t *testing.T) {
	missing := &parse.StepReport{MissingTools: []string{"gcc", "make"}}
	cases := []struct {
		name   string
		step   *glv1.Step
		result *glv1.StepResult
		report *parse.StepReport
		reason string // "": unchanged
	}{
		{"exit 0", &glv1.Step{Image: "plan-image"}, &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_OK, Image: "ran-image"}, missing,
			"gcc, make not found in the image ran-image: the step calls a tool its image lacks (exit 0"},
		{"failed, the plan's image", &glv1.Step{Image: "plan-image"}, &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 2}, missing,
			"not found in the image plan-image"},
		{"timed out", &glv1.Step{}, &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_TIMED_OUT}, missing, ""},
		{"no tool missing", &glv1.Step{}, &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_OK}, &parse.StepReport{}, ""},
		{"no report", &glv1.Step{}, &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_OK}, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := toolAbsent(StepInput{Step: c.step, Result: c.result, Report: c.report})
			if c.reason == "" {
				if got != c.result {
					t.Fatalf("changed: %v", got)
				}
				return
			}
			if got.GetStatus() != glv1.StepStatus_STEP_STATUS_ERROR || got.GetRule() != RuleToolAbsent || !strings.Contains(got.GetReason(), c.reason) {
				t.Fatalf("status %s rule %q reason %q; want ERROR %s with %q", got.GetStatus(), got.GetRule(), got.GetReason(), RuleToolAbsent, c.reason)
			}
		})
	}
}
