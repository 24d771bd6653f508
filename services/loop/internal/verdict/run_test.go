package verdict

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
)

// step builds a step outcome without a parsed report.
func step(name string, phase glv1.Phase, st glv1.StepStatus, optional bool) score.StepOutcome {
	exit := int32(1)
	if st == glv1.StepStatus_STEP_STATUS_OK {
		exit = 0
	}
	return score.StepOutcome{
		Step:   &glv1.Step{Name: name, Phase: phase, Optional: optional},
		Result: &glv1.StepResult{Name: name, Phase: phase, Status: st, ExitCode: exit},
	}
}

const (
	okS      = glv1.StepStatus_STEP_STATUS_OK
	failS    = glv1.StepStatus_STEP_STATUS_FAILED
	skipS    = glv1.StepStatus_STEP_STATUS_SKIPPED
	errS     = glv1.StepStatus_STEP_STATUS_ERROR
	timeoutS = glv1.StepStatus_STEP_STATUS_TIMED_OUT
	buildP   = glv1.Phase_PHASE_BUILD
	testP    = glv1.Phase_PHASE_TEST
	lintP    = glv1.Phase_PHASE_LINT
)

// TestRunRulesDecideTheVerdictInOrder checks each run rule on the steps
// that make it decide, and that an earlier rule wins over a later one.
func TestRunRulesDecideTheVerdictInOrder(t *testing.T) {
	flaky := step("test", testP, failS, false)
	flaky.Report = &parse.StepReport{PassedOnRerun: true}
	cut := func(st glv1.StepStatus, optional bool) score.StepOutcome {
		o := step("test", testP, st, optional)
		o.Report = &parse.StepReport{Incomplete: true, IncompleteReason: "the test log was cut at the per-step cap"}
		return o
	}
	cases := []struct {
		name    string
		steps   []score.StepOutcome
		infra   string
		want    glv1.Verdict
		summary string
		rule    string
	}{
		{"all ok", []score.StepOutcome{step("lint", lintP, okS, false), step("build", buildP, okS, false), step("test", testP, okS, false)}, "", glv1.Verdict_VERDICT_PASS, "PASS", "pass"},
		{"test failed", []score.StepOutcome{step("build", buildP, okS, false), step("test", testP, failS, false)}, "", glv1.Verdict_VERDICT_FAIL, "test (failed, exit 1)", "required-step-failed"},
		{"optional failed", []score.StepOutcome{step("build", buildP, okS, false), step("audit", glv1.Phase_PHASE_SECURITY, failS, true)}, "", glv1.Verdict_VERDICT_PASS, "PASS", "pass"},
		{"lint only", []score.StepOutcome{step("lint", lintP, okS, false)}, "", glv1.Verdict_VERDICT_FAIL, "no required step at L3", "no-l3"},
		{"skipped after failure", []score.StepOutcome{step("build", buildP, failS, false), step("test", testP, skipS, false)}, "", glv1.Verdict_VERDICT_FAIL, "skipped after the failure: test", "required-step-failed"},
		{"timed out", []score.StepOutcome{step("build", buildP, okS, false), step("test", testP, timeoutS, false)}, "", glv1.Verdict_VERDICT_FAIL, "timed_out", "required-step-failed"},
		{"infrastructure", []score.StepOutcome{step("build", buildP, okS, false), step("test", testP, errS, false)}, "", glv1.Verdict_VERDICT_ERROR, "could not run test", "required-step-not-run"},
		{"code failure beats infrastructure", []score.StepOutcome{step("build", buildP, failS, false), step("test", testP, errS, false)}, "", glv1.Verdict_VERDICT_FAIL, "build", "required-step-failed"},
		{"infra error given", []score.StepOutcome{step("build", buildP, okS, false)}, "docker unavailable", glv1.Verdict_VERDICT_ERROR, "docker unavailable", "infrastructure"},
		{"nothing ran", nil, "", glv1.Verdict_VERDICT_ERROR, "no step ran", "nothing-ran"},
		{"flaky passed on rerun", []score.StepOutcome{step("build", buildP, okS, false), flaky}, "", glv1.Verdict_VERDICT_PASS, "PASS", "pass"},
		{"incomplete counts never pass", []score.StepOutcome{step("build", buildP, okS, false), cut(okS, false)}, "", glv1.Verdict_VERDICT_ERROR,
			"test counts incomplete, cannot pass: test (the test log was cut at the per-step cap)", "counts-incomplete"},
		{"a failure with incomplete counts is a FAIL", []score.StepOutcome{step("build", buildP, okS, false), cut(failS, false)}, "", glv1.Verdict_VERDICT_FAIL, "test (failed, exit 1)", "required-step-failed"},
		// An advisory step that timed out (its sandbox destroyed) or could
		// not run stops the steps after it: a build that passed before
		// is no proof of tests that never ran.
		{"skipped after an advisory timeout", []score.StepOutcome{step("build", buildP, okS, false), step("bandit", glv1.Phase_PHASE_SECURITY, timeoutS, true), step("test", testP, skipS, false)}, "",
			glv1.Verdict_VERDICT_ERROR, "could not run test (skipped:", "required-step-not-run"},
		{"an advisory step skipped", []score.StepOutcome{step("build", buildP, okS, false), step("test", testP, okS, false), step("bandit", glv1.Phase_PHASE_SECURITY, skipS, true)}, "",
			glv1.Verdict_VERDICT_PASS, "PASS", "pass"},
		{"an advisory step's incomplete counts", []score.StepOutcome{step("build", buildP, okS, false), cut(okS, true)}, "", glv1.Verdict_VERDICT_PASS, "PASS", "pass"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rule, got, summary := decide(tallyOf(tc.steps, tc.infra))
			if got != tc.want || !strings.Contains(summary, tc.summary) || rule != tc.rule {
				t.Errorf("rule %s: %s %q, want rule %s: %s containing %q", rule, got, summary, tc.rule, tc.want, tc.summary)
			}
			if v, s := Run(tc.steps, tc.infra); v != got || s != summary {
				t.Errorf("Run = %s %q, the rules decide %s %q", v, s, got, summary)
			}
		})
	}
}

// TestScoreFollowsTheVerdict checks what score a verdict carries: a FAIL's
// is capped below the pass threshold (without a threshold it is kept), an
// ERROR carries none, a PASS keeps its own.
func TestScoreFollowsTheVerdict(t *testing.T) {
	cases := []struct {
		name      string
		v         glv1.Verdict
		total     float64
		threshold float64
		want      float64 // -1: no score
	}{
		{"a FAIL at the threshold is capped", glv1.Verdict_VERDICT_FAIL, 9.1, 8, 7.9},
		{"a FAIL below the threshold is kept", glv1.Verdict_VERDICT_FAIL, 6, 8, 6},
		{"no threshold, no cap", glv1.Verdict_VERDICT_FAIL, 9.1, 0, 9.1},
		{"an ERROR carries none", glv1.Verdict_VERDICT_ERROR, 9.1, 8, -1},
		{"a PASS keeps its own", glv1.Verdict_VERDICT_PASS, 9.1, 8, 9.1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Score(c.v, &glv1.Score{Total: c.total}, c.threshold)
			switch {
			case c.want < 0 && got != nil:
				t.Errorf("score %v, want none", got)
			case c.want >= 0 && got.GetTotal() != c.want:
				t.Errorf("total %g, want %g", got.GetTotal(), c.want)
			}
		})
	}
}
