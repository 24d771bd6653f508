package verdict

// RuleNoProgress: the patched code does no better than before: no failing
// test or required step passes now and no fewer checks fail. Keeping such
// a patch would put changes nobody needed into the final diff (or a
// patch whose only effect is on a run the verification never sees).
const RuleNoProgress = "no-progress"

// Progressed reports whether after does better than before on something
// the checks see: a test that failed (or errored) in before passes, a
// required step that did not pass now passes, or fewer checks fail. Both
// verified the same pinned pipeline (with the same hidden tests laid
// over, when the run has them).
func Progressed(before, after Verification) bool {
	if FailingChecks(after) < FailingChecks(before) {
		return true
	}
	for i, b := range before.Steps {
		if b.Optional() || i >= len(after.Steps) || after.Steps[i].Step.GetName() != b.Step.GetName() {
			continue
		}
		a := after.Steps[i]
		if !StepPassed(b) && StepPassed(a) {
			return true
		}
		if b.Report == nil || a.Report == nil || !a.Report.HasTests {
			continue
		}
		now := map[string]bool{}
		for _, t := range a.Report.Inventory {
			if t.Passed() {
				now[t.ID] = true
			}
		}
		for _, t := range b.Report.Inventory {
			if t.Failing() && now[t.ID] {
				return true
			}
		}
	}
	return false
}
