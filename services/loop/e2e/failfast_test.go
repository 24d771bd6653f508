package e2e_test

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

// Fail-fast (the default) in a real sandbox: the breaking patch is rolled back after
// pytest ran only the failing test (narrowed with its node id), then the
// fix gets the full verification and goes green.
func TestFixFailFastWithRealPytest(t *testing.T) {
	s := newStack(t)
	prov, _ := s.commandProvider(t, enginetest.BreakingPatch, enginetest.FixPatch)
	evs := s.fix(&glv1.FixStart{Snapshot: s.snapshot(enginetest.CalcFiles), Options: &glv1.FixOptions{Provider: prov}})
	fin := finished(evs)
	m := fin.GetMetrics()
	if fin.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED || m.GetAttemptsToGreen() != 2 || m.GetRollbacks() != 1 {
		t.Fatalf("status %s metrics %v: %s", fin.GetStatus(), m, fin.GetResult().GetSummary())
	}
	var first *glv1.PatchOutcome
	var probeCommand string
	for _, ev := range evs {
		if o := ev.GetPatchEvaluated().GetOutcome(); o != nil && first == nil {
			first = o
		}
		if st := ev.GetStepStarted().GetStep(); strings.HasSuffix(st.GetName(), ":probe") && probeCommand == "" {
			probeCommand = st.GetCommand()
		}
	}
	if first.GetRule() != "still-failing" || !strings.Contains(first.GetReason(), "1 failing (1 before the patch)") {
		t.Fatalf("first patch: %v", first)
	}
	// The probe's record names the test as the full verification did
	// (JUnit there, the -rA summary here): FAIL_TO_FAIL, nothing else.
	tr := first.GetTransitions()
	if tr.GetFailToFail() != 1 || tr.GetDisappeared()+tr.GetNewTests()+tr.GetPassToPass() != 0 || tr.GetComplete() ||
		len(tr.GetChanges()) != 1 || tr.GetChanges()[0].GetId() != "tests/test_calc.py::test_add" {
		t.Errorf("the probe round's transitions: %v", tr)
	}
	if !strings.Contains(probeCommand, "test_add") || strings.Contains(probeCommand, "test_sub") {
		t.Errorf("the probe must run the failing test alone: %q", probeCommand)
	}
	if n := eventCount(evs, func(ev *glv1.RunEvent) bool { return ev.GetVerificationDone() != nil }); n != 2 {
		t.Errorf("%d full verifications, want 2 (baseline, the fix)", n)
	}
}
