package verdict

import glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"

// GreenInput is what decides whether a fix run's verification is green
// (the run stops there and keeps its patches).
type GreenInput struct {
	// Hidden is the state of the caller's hidden tests in the
	// verification (nil: the run has none).
	Hidden *glv1.HiddenTests
	// Targeted: the caller named targets (FixOptions.targets).
	Targeted bool
	// Resolution grades the verification against the targets and the
	// baseline (package transition); called only when Targeted.
	Resolution func() glv1.Resolution
	// InfraFailed: infrastructure failed in the verification.
	InfraFailed bool
	// Verdict and Score are the verification's; Threshold is the run's
	// pass threshold.
	Verdict   glv1.Verdict
	Score     float64
	Threshold float64
}

// Green decides, in order: every hidden target must pass (a grader that
// ran none passes nothing); with targets, they must be met (resolution
// FULL against the baseline: failures outside them are reported, not
// chased); else the verdict must be PASS with a score at the threshold.
func Green(in GreenInput) bool {
	if h := in.Hidden; h != nil && (h.GetFailed() != 0 || h.GetPassed() == 0) {
		return false
	}
	if in.Targeted {
		return !in.InfraFailed && in.Resolution() == glv1.Resolution_RESOLUTION_FULL
	}
	return in.Verdict == glv1.Verdict_VERDICT_PASS && in.Score >= in.Threshold
}
