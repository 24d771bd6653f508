package verdict

import (
	"fmt"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
)

// Tally is what the run rules read of a verification's steps, once the
// step rules have run. Optional (advisory) steps are not in it: they
// never decide the verdict.
type Tally struct {
	// Failed are the required steps that ran and did not finish OK
	// (failed, timed out, OOM-killed, canceled), flaky-only failures
	// excepted, each described.
	Failed []string
	// SkippedAfter are the required steps skipped after a required
	// step failed.
	SkippedAfter []string
	// Infra are the required steps that could not run at all
	// (STEP_STATUS_ERROR, or skipped when no required step had failed),
	// each with its reason.
	Infra []string
	// Incomplete are the required steps that finished OK with counts
	// cut short (their log hit the per-step cap and no report file was
	// parsed), each with why.
	Incomplete []string
	// Hard: a required step at L3 or above (build, startup, tests) ran
	// OK.
	Hard bool
	// RanAny: any step ran, advisory ones included.
	RanAny bool
	// InfraError is why the verification could not be carried out ("":
	// it could).
	InfraError string
}

// RunRule is one named rule of the run's verdict: Decide returns the
// verdict and its one-line summary when the rule applies.
type RunRule struct {
	Name   string
	Doc    string
	Decide func(Tally) (v glv1.Verdict, summary string, ok bool)
}

// runRules decide the verdict in order; the first that applies wins. A
// code failure is conclusive even when infrastructure also failed, so
// FAIL comes before ERROR; PASS is what is left.
var runRules = []RunRule{
	{Name: "required-step-failed", Doc: "a required step ran and did not finish OK (flaky-only failures excepted): FAIL",
		Decide: func(t Tally) (glv1.Verdict, string, bool) {
			if len(t.Failed) == 0 {
				return 0, "", false
			}
			s := "FAIL: " + strings.Join(t.Failed, ", ")
			if len(t.SkippedAfter) > 0 {
				s += "; skipped after the failure: " + strings.Join(t.SkippedAfter, ", ")
			}
			return glv1.Verdict_VERDICT_FAIL, s, true
		}},
	{Name: "infrastructure", Doc: "the verification could not be carried out (the executor, the budget before any step): ERROR",
		Decide: func(t Tally) (glv1.Verdict, string, bool) {
			return glv1.Verdict_VERDICT_ERROR, "ERROR: " + t.InfraError, t.InfraError != ""
		}},
	{Name: "required-step-not-run", Doc: "a required step could not run at all (STEP_STATUS_ERROR, every step rule's ERROR, or skipped with no required failure before it): ERROR",
		Decide: func(t Tally) (glv1.Verdict, string, bool) {
			return glv1.Verdict_VERDICT_ERROR, "ERROR: could not run " + strings.Join(t.Infra, ", "), len(t.Infra) > 0
		}},
	{Name: "counts-incomplete", Doc: "a required test step finished OK but its log was cut and no report was parsed: what the cut hid was never seen, ERROR",
		Decide: func(t Tally) (glv1.Verdict, string, bool) {
			return glv1.Verdict_VERDICT_ERROR, "ERROR: test counts incomplete, cannot pass: " + strings.Join(t.Incomplete, ", "), len(t.Incomplete) > 0
		}},
	{Name: "nothing-ran", Doc: "no step ran: ERROR",
		Decide: func(t Tally) (glv1.Verdict, string, bool) {
			return glv1.Verdict_VERDICT_ERROR, "ERROR: no step ran", !t.RanAny
		}},
	{Name: "no-l3", Doc: "no required step at L3 or above ran OK (lint alone never passes a change): FAIL",
		Decide: func(t Tally) (glv1.Verdict, string, bool) {
			return glv1.Verdict_VERDICT_FAIL, "FAIL: no required step at L3 or above (build, startup, tests) ran OK", !t.Hard
		}},
	{Name: "pass", Doc: "every required step that ran finished OK, at least one at L3+: PASS",
		Decide: func(Tally) (glv1.Verdict, string, bool) {
			return glv1.Verdict_VERDICT_PASS, "PASS: every required step that ran finished OK, including at least one at L3+", true
		}},
}

// Run decides a verification's verdict from its steps (as the step rules
// left them) and the infrastructure error, if any: the first run rule that
// applies. The summary says why in one line.
func Run(steps []score.StepOutcome, infraError string) (glv1.Verdict, string) {
	_, v, s := decide(tallyOf(steps, infraError))
	return v, s
}

// decide runs the run rules and names the one that decided.
func decide(t Tally) (rule string, v glv1.Verdict, summary string) {
	for _, r := range runRules {
		if v, s, ok := r.Decide(t); ok {
			return r.Name, v, s
		}
	}
	panic("verdict: the last run rule always applies")
}

// tallyOf reads the steps for the run rules.
func tallyOf(steps []score.StepOutcome, infraError string) Tally {
	t := Tally{InfraError: infraError}
	for _, o := range steps {
		st := o.Status()
		if o.Ran() {
			t.RanAny = true
		}
		if o.Optional() {
			continue
		}
		switch {
		case st == glv1.StepStatus_STEP_STATUS_ERROR:
			name := o.Name()
			if why := o.Result.GetReason(); why != "" {
				name += " (" + why + ")"
			}
			t.Infra = append(t.Infra, name)
		case st == glv1.StepStatus_STEP_STATUS_SKIPPED || st == glv1.StepStatus_STEP_STATUS_UNSPECIFIED:
			if len(t.Failed) > 0 {
				t.SkippedAfter = append(t.SkippedAfter, o.Name())
				continue
			}
			// Skipped with no required failure before it: something else
			// stopped it (an advisory step that timed out or could not
			// run, the budget). What never ran proved nothing, so the
			// run cannot pass on the steps that happened to run.
			why := o.Result.GetReason()
			if why == "" {
				why = "never ran"
			}
			t.Infra = append(t.Infra, o.Name()+" (skipped: "+why+")")
		case !o.EffectiveOK() && o.Result.GetRule() != "":
			t.Failed = append(t.Failed, fmt.Sprintf("%s (%s, exit %d, rule %s: %s)", o.Name(), statusWord(st), o.Result.GetExitCode(),
				o.Result.GetRule(), o.Result.GetReason()))
		case !o.EffectiveOK():
			t.Failed = append(t.Failed, fmt.Sprintf("%s (%s, exit %d)", o.Name(), statusWord(st), o.Result.GetExitCode()))
		case o.Report != nil && o.Report.Incomplete:
			t.Incomplete = append(t.Incomplete, fmt.Sprintf("%s (%s)", o.Name(), o.Report.IncompleteReason))
		case o.Level() >= glv1.Level_LEVEL_L3:
			t.Hard = true
		}
	}
	return t
}

// Score is the score a verdict may carry: a FAIL's is capped below the
// pass threshold (0: no cap) so no failing verdict reads as passing; an
// ERROR carries none, since nothing (or not enough) was verified and a
// number would read as a judgement of the code. The score itself and the
// level come from package score.
func Score(v glv1.Verdict, sc *glv1.Score, threshold float64) *glv1.Score {
	switch v {
	case glv1.Verdict_VERDICT_FAIL:
		if threshold > 0 {
			score.CapFailing(sc, threshold)
		}
	case glv1.Verdict_VERDICT_ERROR:
		return nil
	}
	return sc
}

// statusWord is a step status in lower case: "failed", "timed_out".
func statusWord(s glv1.StepStatus) string { return strings.ToLower(display.Enum(s)) }
