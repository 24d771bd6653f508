package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
	"github.com/greenlight-dev/greenlight/services/loop/internal/verdict"
)

const (
	hardCodePatch = enginetest.SquareHardCode
	honestPatch   = enginetest.SquareHonest
	hiddenSquare  = enginetest.SquareHidden
	// commentPatch changes nothing that matters, after hardCodePatch.
	commentPatch = "--- a/sq.py\n+++ b/sq.py\n@@ -1,2 +1,3 @@\n+# f squares x\n def f(x):\n     if x == 2:\n"
	// undoHardCodePatch fixes f for every input, after hardCodePatch.
	undoHardCodePatch = "--- a/sq.py\n+++ b/sq.py\n@@ -1,4 +1,2 @@\n def f(x):\n-    if x == 2:\n-        return 4\n-    return x + 1\n+    return x * x\n"
)

// hiddenWords are what a patch request must never contain: the hidden
// file's path, its test's name and its assertion.
var hiddenWords = append([]string{"assert 4 == 9"}, enginetest.SquareHiddenWords...)

// squareHarness is a harness running the square project.
func squareHarness(t *testing.T) (*harness, *glv1.Digest) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	h.exec.SetJudge(enginetest.SquareJudge)
	return h, h.snapshot(enginetest.SquareFiles)
}

// putText stores text as a blob.
func (h *harness) putText(text string) *glv1.Digest {
	h.t.Helper()
	d, err := h.blobs.Put(context.Background(), strings.NewReader(text))
	if err != nil {
		h.t.Fatal(err)
	}
	return d.Proto()
}

// requireNoHidden fails when any patch request holds a hidden word.
func requireNoHidden(t *testing.T, reqs []*glv1.PatchRequest) {
	t.Helper()
	for i, req := range reqs {
		js, err := protojson.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		text := string(js) + req.GetPrompt()
		for _, w := range hiddenWords {
			if strings.Contains(text, w) {
				t.Errorf("patch request %d holds %q of the hidden tests:\n%s", i+1, w, text)
			}
		}
	}
}

// A hard-coding patch passes the visible test: without hidden tests the
// run ends green on it; with them the candidate fails its grading
// verification, the run is not green, and the model only learns how many
// hidden tests fail.
func TestFixHiddenTestsCatchHardCoding(t *testing.T) {
	h, snap := squareHarness(t)

	run, _, _ := h.fix(&glv1.FixOptions{MaxRounds: 2}, snap, scriptedReply{patch: hardCodePatch})
	if !run.GetMetrics().GetGreen() || run.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED {
		t.Fatalf("without hidden tests the hard-coding patch should go green (that is the hole): %s %v", run.GetStatus(), run.GetMetrics())
	}

	hidden := h.putText(hiddenSquare)
	run, evs, prov := h.fix(&glv1.FixOptions{MaxRounds: 2, HiddenTests: hidden}, snap,
		scriptedReply{patch: hardCodePatch}, scriptedReply{patch: hardCodePatch})
	m := run.GetMetrics()
	if m.GetGreen() || run.GetStatus() == glv1.RunStatus_RUN_STATUS_PASSED || m.GetStopReason() != engine.StopMaxRounds {
		t.Fatalf("with hidden tests the hard-coding patch went green: %s %v", run.GetStatus(), m)
	}
	ps := run.GetPatches()
	if len(ps) != 2 || !ps[0].GetApplied() || ps[0].GetRolledBack() {
		t.Fatalf("patches %v", ps)
	}
	if ht := ps[0].GetHiddenTests(); ht.GetPassed() != 0 || ht.GetFailed() != 1 || len(ht.GetFailing()) != 1 ||
		ht.GetFailing()[0] != "tests/test_sq_hidden.py::test_three" {
		t.Errorf("round 1 hidden tests %v; want test_three failing", ht)
	}
	if ht := m.GetHiddenTests(); ht.GetFailed() != 1 || ht.GetPassed() != 0 {
		t.Errorf("final hidden tests %v", ht)
	}
	if ht := m.GetBaselineHiddenTests(); ht.GetFailed() != 1 {
		t.Errorf("baseline hidden tests %v; the baseline's grading verification ran them", ht)
	}
	// The result is the grading verification's: it names the hidden test
	// for the caller.
	if !strings.Contains(run.GetResult().GetStopMemo(), "test_three") {
		t.Errorf("the caller's stop memo does not name the failing hidden test:\n%s", run.GetResult().GetStopMemo())
	}
	reqs := prov.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	requireNoHidden(t, reqs)
	if !strings.Contains(reqs[0].GetLogTail(), "test_two") || len(reqs[0].GetFailures()) != 1 {
		t.Errorf("round 1 request lacks the visible failure: %v", reqs[0])
	}
	if fb := reqs[1].GetFeedback(); !strings.Contains(fb, "1 hidden test fails") || !strings.Contains(fb, "not just the visible tests") {
		t.Errorf("round 2 feedback does not say a hidden test fails: %q", fb)
	}
	if reqs[1].GetFailingCommand() != "" || len(reqs[1].GetFailures()) != 0 {
		t.Errorf("round 2 request shows failures the model cannot see: %v", reqs[1])
	}
	// The snapshot patches apply to never holds the hidden file; every
	// grading verification does.
	if files := patchedFiles(t, h, run.GetCurrentSnapshot()); files["tests/test_sq_hidden.py"] != "" {
		t.Errorf("the hidden test file is in the run's current snapshot")
	}
	graded, plain := 0, 0
	for _, ev := range evs {
		if d := ev.GetVerificationDone(); d != nil {
			if d.GetHiddenTests() {
				graded++
			} else {
				plain++
			}
		}
	}
	if graded != 2 || plain != 2 {
		t.Errorf("%d grading and %d plain verifications; want 2 and 2 (baseline and round 1 graded, one view per round)", graded, plain)
	}
}

// The honest patch passes the hidden tests too: green, the hidden test
// counted as passed, and the round's record says so.
func TestFixHiddenTestsHonestPatchGreen(t *testing.T) {
	h, snap := squareHarness(t)
	run, _, prov := h.fix(&glv1.FixOptions{MaxRounds: 2, HiddenTests: h.putText(hiddenSquare)}, snap, scriptedReply{patch: honestPatch})
	m := run.GetMetrics()
	if !m.GetGreen() || run.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED || m.GetAttemptsToGreen() != 1 {
		t.Fatalf("status %s metrics %v: %s", run.GetStatus(), m, run.GetResult().GetSummary())
	}
	if ht := m.GetHiddenTests(); ht.GetPassed() != 1 || ht.GetFailed() != 0 {
		t.Errorf("final hidden tests %v", ht)
	}
	if ht := run.GetPatches()[0].GetHiddenTests(); ht.GetPassed() != 1 {
		t.Errorf("round hidden tests %v", ht)
	}
	if c := run.GetResult().GetCounts(); c.GetPassed() != 2 {
		t.Errorf("the result counts %v; want both tests (visible and hidden) passed", c)
	}
	requireNoHidden(t, prov.Requests())
}

// Fail-fast rounds probe the failing tests of the grading verification,
// hidden ones included: a patch that fixes none is rolled back, its record
// counts the hidden tests the probe ran, and the reason fed back names no
// hidden test.
func TestFixHiddenTestsFailFastProbe(t *testing.T) {
	h, snap := squareHarness(t)
	run, _, prov := h.fix(&glv1.FixOptions{MaxRounds: 3, HiddenTests: h.putText(hiddenSquare)}, snap,
		scriptedReply{patch: hardCodePatch}, scriptedReply{patch: commentPatch}, scriptedReply{patch: undoHardCodePatch})
	m := run.GetMetrics()
	ps := run.GetPatches()
	if !m.GetGreen() || m.GetAttemptsToGreen() != 3 || len(ps) != 3 {
		t.Fatalf("metrics %v patches %v", m, ps)
	}
	if ps[1].GetRule() != verdict.RuleStillFailing || !ps[1].GetRolledBack() {
		t.Fatalf("round 2 %v; want a fail-fast rollback", ps[1])
	}
	if ht := ps[1].GetHiddenTests(); ht.GetFailed() != 1 || ht.GetPassed() != 0 {
		t.Errorf("round 2 hidden tests %v; the probe ran the failing hidden test", ht)
	}
	reqs := prov.Requests()
	requireNoHidden(t, reqs)
	if fb := reqs[2].GetFeedback(); !strings.Contains(fb, "still fail") || !strings.Contains(fb, "1 hidden test fails") {
		t.Errorf("round 3 feedback %q", fb)
	}
}

// A patch may not touch what the hidden tests add, even with test changes
// allowed, nor put a file where they need a directory; the refusal is the
// test rule's.
func TestFixHiddenTestsPathsAreTheGraders(t *testing.T) {
	h, snap := squareHarness(t)
	overwrite := "--- /dev/null\n+++ b/tests/test_sq_hidden.py\n@@ -0,0 +1,2 @@\n+def test_three():\n+    pass\n"
	hiddenDir := "--- /dev/null\n+++ b/checks/hidden/test_cube.py\n@@ -0,0 +1,5 @@\n+from sq import f\n+\n+\n+def test_cube():\n+    assert f(3) == 9\n"
	inTheWay := "--- /dev/null\n+++ b/checks/hidden\n@@ -0,0 +1 @@\n+x\n"
	for _, c := range []struct {
		name, hidden, patch string
	}{
		{"same path", hiddenSquare, overwrite},
		{"a file where a hidden directory goes", hiddenDir, inTheWay},
	} {
		t.Run(c.name, func(t *testing.T) {
			run, _, prov := h.fix(&glv1.FixOptions{MaxRounds: 1, HiddenTests: h.putText(c.hidden),
				Guardrails: &glv1.Guardrails{AllowTestChanges: true}}, snap, scriptedReply{patch: c.patch})
			ps := run.GetPatches()
			if len(ps) != 1 || ps[0].GetApplied() || !ps[0].GetRolledBack() || ps[0].GetRule() != "test-edit" {
				t.Fatalf("patches %v; want the patch refused by the test rule", ps)
			}
			if run.GetMetrics().GetGreen() {
				t.Errorf("green")
			}
			requireNoHidden(t, prov.Requests())
		})
	}
}

// A hidden test that is not collected fails: a patch that makes pytest
// ignore the hidden file (with test and config changes allowed) does not
// go green, and the missing test is counted.
func TestFixHiddenTestMissingFails(t *testing.T) {
	h, snap := squareHarness(t)
	ignore := "--- /dev/null\n+++ b/conftest.py\n@@ -0,0 +1 @@\n+collect_ignore = [\"tests/test_sq_hidden.py\"]\n"
	both := ignore + hardCodePatch
	run, _, _ := h.fix(&glv1.FixOptions{MaxRounds: 1, HiddenTests: h.putText(hiddenSquare), FailFast: new(bool),
		Guardrails: &glv1.Guardrails{AllowTestChanges: true, AllowConfigChanges: true}}, snap, scriptedReply{patch: both})
	if run.GetMetrics().GetGreen() {
		t.Fatalf("green with the hidden test ignored: %v", run.GetMetrics())
	}
	ps := run.GetPatches()
	if len(ps) != 1 || !ps[0].GetApplied() {
		t.Fatalf("patches %v", ps)
	}
	if ht := ps[0].GetHiddenTests(); ht.GetMissing() != 1 || ht.GetFailed() != 1 {
		t.Errorf("hidden tests %v; want the ignored test missing", ht)
	}
}

// Explicit hidden targets: each must be collected and pass; one that
// names no test fails even when everything else passes.
func TestFixHiddenTargets(t *testing.T) {
	h, snap := squareHarness(t)
	for _, c := range []struct {
		name    string
		targets []string
		green   bool
		missing int32
	}{
		{"named test passes", []string{"tests/test_sq_hidden.py::test_three"}, true, 0},
		{"short name", []string{"test_three"}, true, 0},
		{"a target nothing collects", []string{"test_three", "test_four"}, false, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			run, _, _ := h.fix(&glv1.FixOptions{MaxRounds: 1, HiddenTests: h.putText(hiddenSquare), HiddenTargets: c.targets}, snap,
				scriptedReply{patch: honestPatch})
			ht := run.GetMetrics().GetHiddenTests()
			if run.GetMetrics().GetGreen() != c.green || ht.GetMissing() != c.missing {
				t.Fatalf("green %t hidden %v; want green %t, %d missing", run.GetMetrics().GetGreen(), ht, c.green, c.missing)
			}
		})
	}
}

// Hidden tests that cannot be used are the caller's error, refused before
// the run starts with a message that says what to do.
func TestFixHiddenTestsBadInput(t *testing.T) {
	h, snap := squareHarness(t)
	notApplying := "--- a/tests/test_sq.py\n+++ b/tests/test_sq.py\n@@ -1,2 +1,2 @@\n-from sq import g\n+from sq import f\n \n"
	for _, c := range []struct {
		name string
		opts *glv1.FixOptions
		want string
	}{
		{"does not apply", &glv1.FixOptions{HiddenTests: h.putText(notApplying)}, "does not apply to the snapshot"},
		{"not a diff", &glv1.FixOptions{HiddenTests: h.putText("def test_x():\n    pass\n")}, "not a unified diff"},
		{"not uploaded", &glv1.FixOptions{HiddenTests: &glv1.Digest{Hash: strings.Repeat("ab", 32), SizeBytes: 10}}, "not in the blob store"},
		{"targets without tests", &glv1.FixOptions{HiddenTargets: []string{"test_three"}}, "hidden_tests is not set"},
		{"empty target", &glv1.FixOptions{HiddenTests: h.putText(hiddenSquare), HiddenTargets: []string{" "}}, "hidden_targets[0]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.opts.Provider = &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_COMMAND}
			_, err := h.eng.StartFix(context.Background(), &glv1.FixStart{Snapshot: snap, Options: c.opts}, nil)
			if !errors.Is(err, engine.ErrInvalidArgument) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("StartFix: %v; want InvalidArgument saying %q", err, c.want)
			}
		})
	}
	page, err := h.store.ListRuns(context.Background(), store.ListQuery{})
	if err != nil || len(page.Runs) != 0 {
		t.Errorf("%d runs stored for refused requests (%v)", len(page.Runs), err)
	}
}
