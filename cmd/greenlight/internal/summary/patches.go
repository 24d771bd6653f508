package summary

import glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"

// AppliedPatches returns the patches that are part of the run's final
// snapshot (applied and not rolled back), in order.
func AppliedPatches(run *glv1.Run) []*glv1.PatchOutcome {
	var out []*glv1.PatchOutcome
	for _, p := range run.GetPatches() {
		if p.GetApplied() && !p.GetRolledBack() {
			out = append(out, p)
		}
	}
	return out
}
