package engine

import glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"

// markIntroduced marks the security findings of a patched verification
// that the baseline did not have: the patch introduced them. A finding is
// the same when its rule, file and message are (not its line: a patch
// above it moves it); as many of a kind as the baseline had are old. Only
// the findings of a scan that ran in the baseline are compared: of one it
// never ran (skipped, or not planned) nothing can be said.
func markIntroduced(now []*glv1.Failure, baseline *glv1.Result) {
	scanned := map[string]bool{}
	for _, s := range baseline.GetSteps() {
		switch s.GetStatus() {
		case glv1.StepStatus_STEP_STATUS_OK, glv1.StepStatus_STEP_STATUS_FAILED:
			if s.GetPhase() == glv1.Phase_PHASE_SECURITY {
				scanned[s.GetName()] = true
			}
		}
	}
	key := func(f *glv1.Failure) string { return f.GetRule() + "\x00" + f.GetFile() + "\x00" + f.GetMessage() }
	old := map[string]int{}
	for _, f := range baseline.GetFailures() {
		if f.GetKind() == glv1.FailureKind_FAILURE_KIND_SECURITY {
			old[key(f)]++
		}
	}
	for _, f := range now {
		if f.GetKind() != glv1.FailureKind_FAILURE_KIND_SECURITY || !scanned[f.GetEvidence().GetStep()] {
			continue
		}
		if k := key(f); old[k] > 0 {
			old[k]--
			continue
		}
		f.Introduced = true
	}
}
