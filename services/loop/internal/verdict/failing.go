package verdict

import "github.com/greenlight-dev/greenlight/services/loop/internal/score"

// Verification is one verification as the patch rules read it.
type Verification struct {
	// Steps are its step outcomes in pipeline order, as the step rules
	// left them.
	Steps []score.StepOutcome
	// InfraFailed: infrastructure failed, so it may have verified nothing.
	InfraFailed bool
}

// FailingChecks counts what a verification left failing, the figure a
// patch must not increase: each failing test of a required step (flaky
// ones excluded), or 1 for a required step that failed without parsed test
// failures (build, lint, a crash) or did not run at all (skipped after an
// earlier failure, cut by the budget, not runnable).
func FailingChecks(v Verification) int {
	n := 0
	for _, o := range v.Steps {
		switch {
		case o.Optional():
		case o.Result == nil || !o.Ran():
			n++
		case o.EffectiveOK():
		case o.Report != nil && o.Report.Counts.Failed+o.Report.Counts.Errors > 0:
			n += o.Report.Counts.Failed + o.Report.Counts.Errors
		default:
			n++
		}
	}
	if n == 0 && (v.InfraFailed || len(v.Steps) == 0) {
		n = 1
	}
	return n
}
