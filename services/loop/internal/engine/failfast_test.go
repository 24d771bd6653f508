package engine_test

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

// probeJudge judges a fail-fast probe step ("pytest:probe", narrowed to the
// failing tests) as the fake pytest run on the patched files.
func probeJudge(step *glv1.Step, files map[string]string) enginetest.Outcome {
	if strings.HasSuffix(step.GetName(), ":probe") {
		s := proto.Clone(step).(*glv1.Step)
		s.Name = "pytest"
		return enginetest.CalcJudge(s, files)
	}
	return enginetest.CalcJudge(step, files)
}

// With fail_fast, a patch that fixes none of the failing tests is rolled
// back after the failing tests alone ran (no full verification); a patch
// that fixes them gets the full verification, which decides.
func TestFixFailFastRollsBackWithoutTheFullPipeline(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	h.exec.SetJudge(probeJudge)
	snap := h.snapshot(enginetest.CalcFiles)
	run, evs, prov := h.fix(&glv1.FixOptions{FailFast: true, MaxRounds: 3}, snap,
		scriptedReply{patch: enginetest.BreakingPatch},
		scriptedReply{patch: enginetest.FixPatch})

	m := run.GetMetrics()
	if !m.GetGreen() || m.GetAttemptsToGreen() != 2 || m.GetRollbacks() != 1 {
		t.Fatalf("metrics %v (events %v)", m, kinds(evs))
	}
	ps := run.GetPatches()
	if len(ps) != 2 || ps[0].GetRule() != engine.RuleStillFailing || !ps[0].GetRolledBack() || !ps[0].GetApplied() ||
		!strings.Contains(ps[0].GetReason(), "pytest:probe: 2 failing (1 before the patch)") {
		t.Fatalf("first patch %v", ps[0])
	}
	if ps[1].GetRolledBack() || ps[1].GetTransitions().GetResolution() != glv1.Resolution_RESOLUTION_FULL {
		t.Errorf("second patch %v", ps[1])
	}
	// Baseline and the fixing round were verified in full; the breaking
	// round was not.
	if n := count(evs, "verification_done"); n != 2 {
		t.Errorf("%d full verifications, want 2 (baseline, the fix): %v", n, kinds(evs))
	}
	if reqs := prov.Requests(); len(reqs) != 2 || !strings.Contains(reqs[1].GetFeedback(), "still fail") {
		t.Errorf("feedback to the model: %q", reqs[len(reqs)-1].GetFeedback())
	}
}
