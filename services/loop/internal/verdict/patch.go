package verdict

import (
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// PatchInput is what the patch rules read: the verification a patch was
// made against, the run's baseline and the verification of the patched
// code, all of the same pinned pipeline.
type PatchInput struct {
	// Current is the verification the patch was made against.
	Current Verification
	// CurrentPassed: Current's verdict was PASS (there was nothing left
	// to fix, so no progress is asked for).
	CurrentPassed bool
	// Baseline is the run's first verification; nil when it is Current.
	Baseline *Verification
	// Patched is the verification of the patched code.
	Patched Verification
	// Summary is Patched's verdict summary, quoted in reasons.
	Summary string
	// Shown rewrites regressions as the model may read them (hidden
	// tests counted, never named); nil shows them as they are.
	Shown func([]Regression) []Regression
}

// Patch decides whether a patched verification is a step back, in rule
// order: a regression against the current verification (a required step
// or a test that passed now fails, is skipped or disappeared, a failing
// test vanished, or more checks fail), a regression against the baseline
// (what passed there must still pass, whatever patches came between),
// and, when the current verification did not pass, no progress. It
// returns the PatchOutcome.rule and the reason, or "" when the patch is
// kept.
func Patch(in PatchInput) (rule, why string) {
	shown := in.Shown
	if shown == nil {
		shown = func(rs []Regression) []Regression { return rs }
	}
	if reg := Regressions(in.Current, in.Patched, true); len(reg) > 0 {
		return RuleRegression, "the patch is a regression: " + DescribeRegressions(shown(reg)) + " (" + in.Summary + ")"
	}
	if in.Baseline != nil {
		if reg := Regressions(*in.Baseline, in.Patched, false); len(reg) > 0 {
			return RuleRegression, "the patch breaks what passed in the baseline: " + DescribeRegressions(shown(reg))
		}
	}
	if !in.CurrentPassed && !Progressed(in.Current, in.Patched) {
		return RuleNoProgress, "the patch fixes nothing the checks see: no failing test or step passes with it and no fewer checks fail (" +
			in.Summary + ")"
	}
	return "", ""
}

// RuleStillFailing rolls back a patch after which none of the tests that
// failed before it passes (FixOptions.fail_fast): its probe, the failing
// test steps narrowed to those tests, still fails them all.
const RuleStillFailing = "still-failing"

// ProbeStillFails judges one probe step of a fail-fast round, which ran
// the tests of a test step that failed before the patch (before of
// them): it still fails when it FAILED and its report counts at least as
// many failed or errored tests. A probe that passed, did not run or could
// not be parsed (rep nil) cannot tell: the full verification decides.
// now is the failing count it saw.
func ProbeStillFails(res *glv1.StepResult, rep *parse.StepReport, before int) (now int, still bool) {
	if res.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED || rep == nil {
		return 0, false
	}
	now = rep.Counts.Failed + rep.Counts.Errors
	return now, now >= before
}
