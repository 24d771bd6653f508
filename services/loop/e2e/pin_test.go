package e2e_test

import (
	"io"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

// fixWithClient runs a Fix with the CLIENT provider, answering the n-th
// PatchRequested with patches[n-1] and giving up after the last.
func (s *stack) fixWithClient(opts *glv1.FixOptions, snap *glv1.Digest, patches ...string) []*glv1.RunEvent {
	s.t.Helper()
	stream, err := s.runs.Fix(s.ctx())
	if err != nil {
		s.t.Fatal(err)
	}
	opts.Provider = &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_CLIENT}
	if err := stream.Send(&glv1.FixRequest{Msg: &glv1.FixRequest_Start{Start: &glv1.FixStart{Snapshot: snap, Options: opts}}}); err != nil {
		s.t.Fatal(err)
	}
	n := 0
	return drain(s.t, func() (*glv1.RunEvent, error) {
		r, err := stream.Recv()
		if req := r.GetEvent().GetPatchRequested().GetRequest(); req != nil {
			reply := &glv1.PatchReply{Attempt: req.GetAttempt(), GiveUp: n >= len(patches)}
			if n < len(patches) {
				reply.Patch = patches[n]
			}
			n++
			if serr := stream.Send(&glv1.FixRequest{Msg: &glv1.FixRequest_Patch{Patch: reply}}); serr != nil && serr != io.EOF {
				s.t.Fatalf("reply: %v", serr)
			}
		}
		return r.GetEvent(), err
	})
}

// outcomes returns the PatchOutcomes of a run's events.
func outcomes(evs []*glv1.RunEvent) []*glv1.PatchOutcome {
	var out []*glv1.PatchOutcome
	for _, ev := range evs {
		if o := ev.GetPatchEvaluated().GetOutcome(); o != nil {
			out = append(out, o)
		}
	}
	return out
}

// failedTest reports whether the final result lists a failure of the
// named test (so the test ran).
func failedTest(fin *glv1.RunFinished, name string) bool {
	for _, f := range fin.GetResult().GetFailures() {
		if strings.Contains(f.GetTest()+" "+f.GetMessage(), name) {
			return true
		}
	}
	return false
}

// withFiles returns CalcFiles plus extra files.
func withFiles(extra map[string]string) map[string]string {
	return withAll(enginetest.CalcFiles, extra)
}

// selectOnlyPassing is a greenlight.yaml that runs only the passing test.
const selectOnlyPassing = "--- /dev/null\n+++ b/greenlight.yaml\n@@ -0,0 +1,3 @@\n" +
	"+steps:\n+  - name: unit\n+    command: python3 -m pytest -rA tests/test_calc.py::test_sub\n"

// ADVERSARIAL row 32 (a): a patch adding a greenlight.yaml that selects
// only a passing test is refused with rule "config"; the failing test still
// runs and the run does not end PASSED.
func TestFixRefusesGreenlightYAMLThatSelectsAPassingTest(t *testing.T) {
	s := newStack(t)
	evs := s.fixWithClient(&glv1.FixOptions{MaxRounds: 1}, s.snapshot(enginetest.CalcFiles), selectOnlyPassing)
	fin := finished(evs)
	outs := outcomes(evs)
	if len(outs) != 1 || outs[0].GetApplied() || outs[0].GetRule() != "config" || !strings.Contains(outs[0].GetReason(), "greenlight.yaml") {
		t.Fatalf("outcomes %v", outs)
	}
	if fin.GetStatus() == glv1.RunStatus_RUN_STATUS_PASSED || fin.GetMetrics().GetGreen() {
		t.Fatalf("status %s: %s", fin.GetStatus(), fin.GetResult().GetSummary())
	}
	if !failedTest(fin, "test_add") {
		t.Errorf("the failing test did not run: %v", fin.GetResult().GetFailures())
	}
}

// existingConfig is CalcFiles with its own greenlight.yaml, pytest.ini and
// conftest.py.
func existingConfig() map[string]string {
	return withFiles(map[string]string{
		"greenlight.yaml":   "steps:\n  - name: unit\n    command: python3 -m pytest -rA tests\n",
		"pytest.ini":        "[pytest]\naddopts = -p no:cacheprovider\n",
		"tests/conftest.py": "import pytest\n",
	})
}

// Patches that deselect the failing test by editing existing config.
const (
	deselectInGreenlightYAML = "--- a/greenlight.yaml\n+++ b/greenlight.yaml\n@@ -1,3 +1,3 @@\n steps:\n   - name: unit\n" +
		"-    command: python3 -m pytest -rA tests\n+    command: python3 -m pytest -rA tests/test_calc.py::test_sub\n"
	deselectInPytestINI = "--- a/pytest.ini\n+++ b/pytest.ini\n@@ -1,2 +1,2 @@\n [pytest]\n" +
		"-addopts = -p no:cacheprovider\n+addopts = -p no:cacheprovider --deselect tests/test_calc.py::test_add\n"
	deselectInConftest = "--- a/tests/conftest.py\n+++ b/tests/conftest.py\n@@ -1 +1,4 @@\n import pytest\n+\n" +
		"+def pytest_collection_modifyitems(items):\n+    items[:] = [i for i in items if i.name != 'test_add']\n"
)

// ADVERSARIAL row 32 (b): edits of existing config that deselect the
// failing test are refused by default. With allow_config_changes the
// greenlight.yaml edit applies, yet the pinned plan still runs the failing
// test; the pytest.ini edit applies and is rolled back because the failing
// test no longer runs.
func TestFixRefusesConfigEditsThatDeselectTheFailingTest(t *testing.T) {
	s := newStack(t)
	snap := s.snapshot(existingConfig())
	t.Run("refused by default", func(t *testing.T) {
		evs := s.fixWithClient(&glv1.FixOptions{MaxRounds: 3}, snap, deselectInGreenlightYAML, deselectInPytestINI, deselectInConftest)
		fin := finished(evs)
		for i, o := range outcomes(evs) {
			if o.GetApplied() || o.GetRule() != "config" {
				t.Errorf("patch %d: applied %t rule %q: %s", i+1, o.GetApplied(), o.GetRule(), o.GetReason())
			}
		}
		if len(outcomes(evs)) != 3 || fin.GetStatus() == glv1.RunStatus_RUN_STATUS_PASSED || !failedTest(fin, "test_add") {
			t.Fatalf("status %s outcomes %d: %s", fin.GetStatus(), len(outcomes(evs)), fin.GetResult().GetSummary())
		}
	})
	t.Run("allowed greenlight.yaml edit: the pinned plan still runs the failing test", func(t *testing.T) {
		// Fail-fast off, so the full verification decides: with the plan
		// pinned, the edit changes nothing that runs, so the failing test
		// still fails and the patch is rolled back as fixing nothing
		// (rule no-progress).
		evs := s.fixWithClient(&glv1.FixOptions{MaxRounds: 1, FailFast: proto.Bool(false), Guardrails: &glv1.Guardrails{AllowConfigChanges: true}},
			snap, deselectInGreenlightYAML)
		fin := finished(evs)
		if outs := outcomes(evs); len(outs) != 1 || !outs[0].GetApplied() || !outs[0].GetRolledBack() || outs[0].GetRule() != "no-progress" {
			t.Fatalf("outcomes %v", outs)
		}
		if fin.GetStatus() == glv1.RunStatus_RUN_STATUS_PASSED || !failedTest(fin, "test_add") {
			t.Fatalf("status %s: %s", fin.GetStatus(), fin.GetResult().GetSummary())
		}
		reused := 0
		for _, ev := range evs {
			if strings.Contains(strings.Join(ev.GetDiscoveryDone().GetCapabilities().GetNotes(), " "), "is reused") {
				reused++
			}
		}
		if reused != 1 {
			t.Errorf("%d DiscoveryDone events say the pinned plan is reused, want 1", reused)
		}
	})
	t.Run("allowed pytest.ini edit: rolled back, the failing test vanished", func(t *testing.T) {
		evs := s.fixWithClient(&glv1.FixOptions{MaxRounds: 1, Guardrails: &glv1.Guardrails{AllowConfigChanges: true}}, snap, deselectInPytestINI)
		fin := finished(evs)
		outs := outcomes(evs)
		if len(outs) != 1 || !outs[0].GetApplied() || !outs[0].GetRolledBack() || outs[0].GetRule() != "regression" ||
			!strings.Contains(outs[0].GetReason(), "test_add") {
			t.Fatalf("outcomes %v", outs)
		}
		if fin.GetStatus() == glv1.RunStatus_RUN_STATUS_PASSED {
			t.Fatalf("status %s: %s", fin.GetStatus(), fin.GetResult().GetSummary())
		}
	})
}

// manyTests is a project with several passing tests and two failing ones
// (add is broken), in two test modules that both import calc.
func manyTests() map[string]string {
	return withFiles(map[string]string{
		"tests/test_calc.py": enginetest.CalcFiles["tests/test_calc.py"] + "\n\ndef test_add_again():\n    assert add(2, 2) == 4\n",
		"tests/test_more.py": "from calc import sub\n\n\ndef test_sub_zero():\n    assert sub(1, 1) == 0\n\n\n" +
			"def test_sub_neg():\n    assert sub(1, 2) == -1\n\n\ndef test_sub_big():\n    assert sub(10, 3) == 7\n",
	})
}

// importBreak turns the failing test into an import error: calc.py no
// longer imports, so no test is collected (collection errors instead).
const importBreak = "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n-def add(a, b):\n+def add(a, b) -> missing_name:\n     return a - b\n"

// ADVERSARIAL row 33 (c): a patch that turns failing tests into an import
// break (the passing tests disappear, the failing count does not grow) is
// rolled back as a regression; the correct patch then goes green. With
// fail-fast off, so that the full pipeline's regression rule is what
// catches it (TestFixFailFastCatchesAnImportBreak covers the default).
func TestFixRollsBackAnImportBreak(t *testing.T) {
	s := newStack(t)
	evs := s.fixWithClient(&glv1.FixOptions{MaxRounds: 2, FailFast: proto.Bool(false)}, s.snapshot(manyTests()), importBreak, enginetest.FixPatch)
	fin := finished(evs)
	outs := outcomes(evs)
	if len(outs) != 2 {
		t.Fatalf("outcomes %v", outs)
	}
	if !outs[0].GetApplied() || !outs[0].GetRolledBack() || outs[0].GetRule() != "regression" {
		t.Fatalf("import break: applied %t rolled back %t rule %q: %s (failing %d → %d)", outs[0].GetApplied(), outs[0].GetRolledBack(),
			outs[0].GetRule(), outs[0].GetReason(), outs[0].GetFailingBefore(), outs[0].GetFailingAfter())
	}
	// The attack: the count of failing checks does not grow (2 failing
	// tests → 2 collection errors), so a count-only rule keeps the patch.
	if outs[0].GetFailingAfter() > outs[0].GetFailingBefore() {
		t.Errorf("the failing count grew (%d → %d): the test no longer reproduces the attack", outs[0].GetFailingBefore(), outs[0].GetFailingAfter())
	}
	if !strings.Contains(outs[0].GetReason(), `step "pytest"`) {
		t.Errorf("reason does not name the step: %s", outs[0].GetReason())
	}
	if outs[1].GetRolledBack() || fin.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED || !fin.GetMetrics().GetGreen() {
		t.Fatalf("fix: %v; status %s: %s", outs[1], fin.GetStatus(), fin.GetResult().GetSummary())
	}
}

// ADVERSARIAL row 33 (c) with fail-fast on (the default): the probe runs
// the two failing tests alone, they now error at collection, so the patch
// fixes none of them and is rolled back without the full pipeline.
func TestFixFailFastCatchesAnImportBreak(t *testing.T) {
	s := newStack(t)
	evs := s.fixWithClient(&glv1.FixOptions{MaxRounds: 2}, s.snapshot(manyTests()), importBreak, enginetest.FixPatch)
	outs := outcomes(evs)
	if len(outs) != 2 || !outs[0].GetRolledBack() || outs[0].GetRule() != "still-failing" {
		t.Fatalf("outcomes %v", outs)
	}
	if fin := finished(evs); outs[1].GetRolledBack() || fin.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED {
		t.Fatalf("fix: %v; status %s: %s", outs[1], fin.GetStatus(), fin.GetResult().GetSummary())
	}
}
