package engine_test

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
	"github.com/greenlight-dev/greenlight/services/loop/internal/verdict"
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

// Fail-fast is on by default: a patch that fixes none of the failing tests
// is rolled back after the failing tests alone ran (no full verification)
// and its round records the transitions of those tests, incomplete and
// ungraded; a patch that fixes them gets the full verification, which
// decides.
func TestFixFailFastRollsBackWithoutTheFullPipeline(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	h.exec.SetJudge(probeJudge)
	snap := h.snapshot(enginetest.CalcFiles)
	run, evs, prov := h.fix(&glv1.FixOptions{MaxRounds: 3}, snap,
		scriptedReply{patch: enginetest.BreakingPatch},
		scriptedReply{patch: enginetest.FixPatch})

	m := run.GetMetrics()
	if !m.GetGreen() || m.GetAttemptsToGreen() != 2 || m.GetRollbacks() != 1 {
		t.Fatalf("metrics %v (events %v)", m, kinds(evs))
	}
	if ff := run.GetFixOptions().FailFast; ff == nil || !*ff {
		t.Errorf("the run records fail_fast %v; want true, as it applied", ff)
	}
	ps := run.GetPatches()
	if len(ps) != 2 || ps[0].GetRule() != verdict.RuleStillFailing || !ps[0].GetRolledBack() || !ps[0].GetApplied() ||
		!strings.Contains(ps[0].GetReason(), "pytest:probe: 2 failing (1 before the patch)") {
		t.Fatalf("first patch %v", ps[0])
	}
	// The fake pytest ignores the narrowing and runs both tests: the
	// record lists what the probe ran (test_sub broke too), never the
	// tests it did not run as disappeared.
	tr := ps[0].GetTransitions()
	if tr.GetComplete() || tr.GetResolution() != glv1.Resolution_RESOLUTION_UNSPECIFIED || tr.GetFailToFail() != 1 ||
		tr.GetPassToFail() != 1 || tr.GetDisappeared() != 0 || len(tr.GetChanges()) != 2 ||
		tr.GetChanges()[0].GetStep() != "pytest" || !strings.Contains(tr.GetChanges()[0].GetId(), "test_add") {
		t.Errorf("the probe round's transitions: %v; want test_add FAIL_TO_FAIL, test_sub PASS_TO_FAIL, incomplete, ungraded", tr)
	}
	if ps[1].GetRolledBack() || ps[1].GetTransitions().GetResolution() != glv1.Resolution_RESOLUTION_FULL {
		t.Errorf("second patch %v", ps[1])
	}
	// One execution a round: the probe runs right before pytest in the
	// pinned pipeline; it stopped the breaking round there, and the fixing
	// round went on through the whole pipeline in the same execution.
	reqs := h.exec.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d Execute calls, want 4 (baseline, its re-run of the failing test, one per round)", len(reqs))
	}
	for _, req := range reqs[2:] {
		var names []string
		for _, st := range req.GetPipeline().GetSteps() {
			names = append(names, st.GetName())
		}
		if got := strings.Join(names, ","); got != "compileall,pytest:probe,pytest" {
			t.Errorf("round pipeline %s, want compileall,pytest:probe,pytest", got)
		}
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

// fail_fast set to false verifies every patch in full.
func TestFixFailFastOff(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	h.exec.SetJudge(probeJudge)
	run, evs, _ := h.fix(&glv1.FixOptions{FailFast: proto.Bool(false), MaxRounds: 3}, h.snapshot(enginetest.CalcFiles),
		scriptedReply{patch: enginetest.BreakingPatch},
		scriptedReply{patch: enginetest.FixPatch})
	if ps := run.GetPatches(); len(ps) != 2 || ps[0].GetRule() != verdict.RuleRegression {
		t.Fatalf("patches %v", ps)
	}
	if n := count(evs, "verification_done"); n != 3 {
		t.Errorf("%d full verifications, want 3 (baseline, both patches): %v", n, kinds(evs))
	}
}

// A failing required check that is not a test step (a lint here) may be
// what the patch fixes: the probe cannot tell, so the full pipeline runs.
func TestFixFailFastSkippedWhenAnotherCheckFails(t *testing.T) {
	lint := enginetest.Step("lint", glv1.Tier_TIER_0, glv1.Phase_PHASE_LINT, 1, 0)
	lint.ContinueOnFailure = true
	steps := enginetest.CalcSteps()
	h := newHarness(t, engine.Config{}, steps[0], lint, steps[1])
	h.exec.SetJudge(probeJudge)
	_, evs, _ := h.fix(&glv1.FixOptions{MaxRounds: 1}, h.snapshot(enginetest.CalcFiles),
		scriptedReply{patch: enginetest.BreakingPatch})
	if n := count(evs, "verification_done"); n != 2 {
		t.Errorf("%d full verifications, want 2 (baseline, the patch): %v", n, kinds(evs))
	}
	for _, ev := range evs {
		if strings.HasSuffix(ev.GetStepStarted().GetStep().GetName(), ":probe") {
			t.Fatalf("a probe ran although lint fails too: %v", ev)
		}
	}
}
