package verdict

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// TestNoSelectedTestIsNoPass checks rule no-selected-test: go test exits 0
// when -run matches nothing, so a narrowed step that counted no test is an
// ERROR; one that counted the selected test, or a step not narrowed, stays.
func TestNoSelectedTestIsNoPass(t *testing.T) {
	step := &glv1.Step{Name: "go-test", Phase: glv1.Phase_PHASE_TEST}
	noMatch := "testing: warning: no tests to run\nPASS\nok  \texample.com/calc\t0.01s\n"
	ok := func() *glv1.StepResult {
		return &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_OK, Tail: noMatch}
	}
	ran := &parse.StepReport{HasTests: true, Counts: parse.Counts{Passed: 1}}
	cases := []struct {
		name     string
		selected []string
		result   *glv1.StepResult
		report   *parse.StepReport
		want     glv1.StepStatus
	}{
		{"narrowed, nothing matched", []string{"TestAd"}, ok(), &parse.StepReport{HasTests: true}, glv1.StepStatus_STEP_STATUS_ERROR},
		{"narrowed, no report", []string{"TestAd"}, ok(), nil, glv1.StepStatus_STEP_STATUS_ERROR},
		{"narrowed, the test ran", []string{"TestAdd"}, ok(), ran, glv1.StepStatus_STEP_STATUS_OK},
		{"not narrowed", nil, ok(), nil, glv1.StepStatus_STEP_STATUS_OK},
		{"pytest deselected everything (exit 5)", []string{"test_nothing"},
			&glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 5}, &parse.StepReport{HasTests: true}, glv1.StepStatus_STEP_STATUS_ERROR},
		{"narrowed and a selected test failed stays failed", []string{"TestAdd"},
			&glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1}, &parse.StepReport{HasTests: true, Counts: parse.Counts{Failed: 1}},
			glv1.StepStatus_STEP_STATUS_FAILED},
		{"narrowed and timed out stays timed out", []string{"TestAdd"},
			&glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_TIMED_OUT}, nil, glv1.StepStatus_STEP_STATUS_TIMED_OUT},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Steps(OnReport, StepInput{Step: step, Result: tc.result, Report: tc.report, Selected: tc.selected})
			if got.GetStatus() != tc.want {
				t.Fatalf("status %s (%s), want %s", got.GetStatus(), got.GetReason(), tc.want)
			}
			if tc.want == glv1.StepStatus_STEP_STATUS_ERROR && (got.GetRule() != RuleNoSelectedTest || !strings.Contains(got.GetReason(), tc.selected[0])) {
				t.Fatalf("rule %q reason %q", got.GetRule(), got.GetReason())
			}
		})
	}
}
