package verdict

import (
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
)

// TestFailingChecksCountsWhatAPatchMustNotIncrease checks the figure the
// regression rule compares: each failing test of a required step, else 1
// per required step that failed or did not run; optional steps and flaky
// tests never count, and a verification that verified nothing counts 1.
func TestFailingChecksCountsWhatAPatchMustNotIncrease(t *testing.T) {
	const ok, failed, skipped = glv1.StepStatus_STEP_STATUS_OK, glv1.StepStatus_STEP_STATUS_FAILED, glv1.StepStatus_STEP_STATUS_SKIPPED
	p, f := parse.StatusPassed.String(), parse.StatusFailed.String()
	lint := outcome("lint", failed, nil)
	lint.Step.Optional = true
	cases := []struct {
		name string
		v    Verification
		want int
	}{
		{"all pass", Verification{Steps: []score.StepOutcome{outcome("build", ok, nil), outcome("test", ok, testReport(-1, "a="+p))}}, 0},
		{"two failing tests", Verification{Steps: []score.StepOutcome{outcome("test", failed, testReport(-1, "a="+f, "b="+f, "c="+p))}}, 2},
		{"a build failed, the tests were skipped", Verification{Steps: []score.StepOutcome{outcome("build", failed, nil), outcome("test", skipped, nil)}}, 2},
		{"a step that never ran", Verification{Steps: []score.StepOutcome{{Step: &glv1.Step{Name: "test"}}}}, 1},
		{"flaky only", Verification{Steps: []score.StepOutcome{outcome("test", ok, testReport(-1, "a=flaky"))}}, 0},
		{"an optional step", Verification{Steps: []score.StepOutcome{outcome("build", ok, nil), lint}}, 0},
		{"infrastructure failed", Verification{Steps: []score.StepOutcome{outcome("build", ok, nil)}, InfraFailed: true}, 1},
		{"no steps", Verification{}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := FailingChecks(c.v); got != c.want {
				t.Errorf("FailingChecks = %d, want %d", got, c.want)
			}
		})
	}
}
