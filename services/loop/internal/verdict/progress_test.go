package verdict

import (
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
)

// TestProgressedWhenSomethingFailingNowPasses checks the no-progress
// rule's test: a failing test or required step that passes now, or fewer
// failing checks, is progress; a change the checks do not see, a flaky
// pass of a test that was not failing, or an optional step is not.
func TestProgressedWhenSomethingFailingNowPasses(t *testing.T) {
	const ok, failed = glv1.StepStatus_STEP_STATUS_OK, glv1.StepStatus_STEP_STATUS_FAILED
	p, f := parse.StatusPassed.String(), parse.StatusFailed.String()
	v := func(o ...score.StepOutcome) Verification { return Verification{Steps: o} }
	optional := func(o score.StepOutcome) score.StepOutcome { o.Step.Optional = true; return o }
	cases := []struct {
		name          string
		before, after Verification
		want          bool
	}{
		{"nothing changed", v(outcome("test", failed, testReport(-1, "a="+p, "b="+f))), v(outcome("test", failed, testReport(-1, "a="+p, "b="+f))), false},
		{"a failing test passes", v(outcome("test", failed, testReport(-1, "b="+f, "c="+f))), v(outcome("test", failed, testReport(-1, "b="+p, "c="+f))), true},
		{"a failing test passes on re-run", v(outcome("test", failed, testReport(-1, "b="+f, "c="+f))), v(outcome("test", failed, testReport(-1, "b=flaky", "c="+f))), true},
		{"a failing build passes", v(outcome("build", failed, nil)), v(outcome("build", ok, nil)), true},
		{"an optional step passes", v(optional(outcome("lint", failed, nil)), outcome("test", failed, nil)),
			v(optional(outcome("lint", ok, nil)), outcome("test", failed, nil)), false},
		{"fewer failing checks", v(outcome("test", failed, testReport(-1, "b="+f, "c="+f))), v(outcome("test", failed, testReport(-1, "b="+f))), true},
		{"a renamed step is not compared", v(outcome("build", failed, nil)), v(outcome("make", ok, nil)), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Progressed(c.before, c.after); got != c.want {
				t.Errorf("Progressed = %t, want %t", got, c.want)
			}
		})
	}
}
