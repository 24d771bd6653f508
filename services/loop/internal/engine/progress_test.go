package engine_test

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
	"github.com/greenlight-dev/greenlight/services/loop/internal/verdict"
)

// TestFixRollsBackAPatchThatFixesNothing checks that, without the
// fail-fast probe to catch it, a patch that changes nothing the checks
// see (a comment) is rolled back with rule no-progress, so the final diff
// holds only the real fix.
func TestFixRollsBackAPatchThatFixesNothing(t *testing.T) {
	const doNothing = "--- a/calc.py\n+++ b/calc.py\n@@ -4,3 +4,4 @@\n \n def sub(a, b):\n+    # subtracts\n     return a - b\n"
	off := false
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	run, _, _ := h.fix(&glv1.FixOptions{FailFast: &off, MaxRounds: 2}, h.snapshot(enginetest.CalcFiles),
		scriptedReply{patch: doNothing}, scriptedReply{patch: enginetest.FixPatch})
	ps := run.GetPatches()
	if len(ps) != 2 || !run.GetMetrics().GetGreen() {
		t.Fatalf("green %t, patches %v", run.GetMetrics().GetGreen(), ps)
	}
	if !ps[0].GetRolledBack() || ps[0].GetRule() != verdict.RuleNoProgress {
		t.Errorf("do-nothing patch: rolled back %t rule %q (%s), want rolled back with %s", ps[0].GetRolledBack(), ps[0].GetRule(),
			ps[0].GetReason(), verdict.RuleNoProgress)
	}
	if ps[1].GetSnapshotBefore().GetHash() != run.GetSnapshot().GetHash() {
		t.Errorf("the fix applied to %v, want the original snapshot (the do-nothing patch is not in the final diff)", ps[1].GetSnapshotBefore())
	}
	final := patchedFiles(t, h, run.GetCurrentSnapshot())
	if strings.Contains(final["calc.py"], "# subtracts") {
		t.Errorf("final calc.py keeps the do-nothing change:\n%s", final["calc.py"])
	}
}
