package e2e_test

import (
	"io"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

// goCalc has a bug in Add (two of TestAdd's three subtests fail) and a
// test that was broken before the task and is not the task's.
var goCalc = map[string]string{
	"go.mod": "module example.com/calc\n\ngo 1.22\n",
	"calc.go": `// Package calc does arithmetic.
package calc

// Add returns a plus b.
func Add(a, b int) int {
	return a - b
}

// Sub returns a minus b.
func Sub(a, b int) int {
	return a - b
}
`,
	"calc_test.go": `package calc

import "testing"

func TestAdd(t *testing.T) {
	for _, c := range []struct {
		name       string
		a, b, want int
	}{{"small", 1, 2, 3}, {"zero", 0, 0, 0}, {"large", 40, 2, 42}} {
		t.Run(c.name, func(t *testing.T) {
			if got := Add(c.a, c.b); got != c.want {
				t.Errorf("Add(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
			}
		})
	}
}

func TestSub(t *testing.T) {
	if got := Sub(5, 3); got != 2 {
		t.Errorf("Sub(5, 3) = %d, want 2", got)
	}
}

func TestKnownBroken(t *testing.T) {
	t.Error("broken before the task, and not the task's")
}
`,
}

// Patches for goCalc: a regression (fixes Add, breaks Sub), a build break,
// and the fix.
const (
	goRegressionPatch = "--- a/calc.go\n+++ b/calc.go\n@@ -3,10 +3,10 @@\n \n // Add returns a plus b.\n func Add(a, b int) int {\n" +
		"-\treturn a - b\n+\treturn a + b\n }\n \n // Sub returns a minus b.\n func Sub(a, b int) int {\n-\treturn a - b\n+\treturn a + b\n }\n"
	goBuildBreakPatch = "--- a/calc.go\n+++ b/calc.go\n@@ -5,3 +5,3 @@\n func Add(a, b int) int {\n-\treturn a - b\n+\treturn a + b +\n }\n"
	goFixPatch        = "--- a/calc.go\n+++ b/calc.go\n@@ -5,3 +5,3 @@\n func Add(a, b int) int {\n-\treturn a - b\n+\treturn a + b\n }\n"
)

// outcomesOf lists the PatchEvaluated outcomes of a run's events.
func outcomesOf(evs []*glv1.RunEvent) []*glv1.PatchOutcome {
	var out []*glv1.PatchOutcome
	for _, ev := range evs {
		if o := ev.GetPatchEvaluated().GetOutcome(); o != nil {
			out = append(out, o)
		}
	}
	return out
}

// change finds the transition of a test id (nil when not listed).
func change(tr *glv1.Transitions, id string) *glv1.TestTransition {
	for _, c := range tr.GetChanges() {
		if c.GetId() == id {
			return c
		}
	}
	return nil
}

// TestFixTargetsGoSubtests: explicit FAIL_TO_PASS targets named by Go
// subtest ids; a regression and a build break are rolled back by their
// transitions; the fix resolves the target although a failure outside it
// (TestKnownBroken, failing at baseline) remains.
func TestFixTargetsGoSubtests(t *testing.T) {
	s := newStack(t)
	prov, _ := s.commandProvider(t, goRegressionPatch, goBuildBreakPatch, goFixPatch)
	evs := s.fix(&glv1.FixStart{Snapshot: s.snapshot(goCalc), Options: &glv1.FixOptions{Provider: prov, MaxRounds: 3,
		Targets: &glv1.FixTargets{FailToPass: []string{"TestAdd", "TestAdd/small", "TestAdd/large"}}}})
	fin := finished(evs)
	m := fin.GetMetrics()
	outs := outcomesOf(evs)
	if len(outs) != 3 {
		t.Fatalf("%d patch outcomes, want 3: %v", len(outs), outs)
	}
	reg := outs[0]
	if !reg.GetRolledBack() || reg.GetTransitions().GetPassToFail() == 0 ||
		change(reg.GetTransitions(), "example.com/calc.TestSub").GetKind() != glv1.TransitionKind_TRANSITION_KIND_PASS_TO_FAIL {
		t.Errorf("regression patch: rolled back %t, transitions %v", reg.GetRolledBack(), reg.GetTransitions())
	}
	brk := outs[1]
	if !brk.GetRolledBack() || brk.GetTransitions().GetDisappeared() == 0 ||
		change(brk.GetTransitions(), "example.com/calc.TestSub").GetKind() != glv1.TransitionKind_TRANSITION_KIND_DISAPPEARED {
		t.Errorf("build break: rolled back %t (%s), transitions %v", brk.GetRolledBack(), brk.GetReason(), brk.GetTransitions())
	}
	if outs[2].GetRolledBack() || !m.GetGreen() || m.GetAttemptsToGreen() != 3 {
		t.Fatalf("fix: rolled back %t (%s); metrics %v", outs[2].GetRolledBack(), outs[2].GetReason(), m)
	}
	tr := m.GetTransitions()
	if tr.GetResolution() != glv1.Resolution_RESOLUTION_FULL || tr.GetTargetFailToPass() != 3 || tr.GetTargetFailToPassPassed() != 3 ||
		tr.GetFailToPass() != 2 || tr.GetFailToFail() != 1 || tr.GetPassToFail() != 0 {
		t.Errorf("final transitions %v, want FULL: TestAdd's 3 subtests are the target (2 FAIL_TO_PASS), TestKnownBroken FAIL_TO_FAIL", tr)
	}
	if got := strings.Join(tr.GetFailingOutsideTarget(), ","); got != "go-test" {
		t.Errorf("failing outside the target: %q, want go-test", got)
	}
	if c := change(tr, "example.com/calc.TestAdd/small"); c == nil || !c.GetTarget() || c.GetKind() != glv1.TransitionKind_TRANSITION_KIND_FAIL_TO_PASS {
		t.Errorf("TestAdd/small: %v", c)
	}
	// The verdict still says what happened: a test fails.
	if fin.GetResult().GetStatus() != glv1.Verdict_VERDICT_FAIL {
		t.Errorf("result %s, want FAIL (TestKnownBroken still fails): %s", fin.GetResult().GetStatus(), fin.GetResult().GetSummary())
	}
	if inv := fin.GetResult().GetInventory(); inv.GetTests() != 5 || !inv.GetComplete() || inv.GetBlob().GetHash() == "" {
		t.Errorf("inventory %v, want the 5 tests (3 subtests, TestSub, TestKnownBroken) stored", inv)
	}
	base := m.GetBaselineInventory()
	if base.GetTests() != 5 || base.GetBlob().GetHash() == fin.GetResult().GetInventory().GetBlob().GetHash() {
		t.Errorf("baseline inventory %v, want the baseline's 5 tests with other outcomes than the final one", base)
	}
	lines := string(s.blob(t, base.GetBlob()))
	if !strings.Contains(lines, `"id":"example.com/calc.TestAdd/small","status":"failed"`) || strings.Count(lines, "\n") != 5 {
		t.Errorf("baseline inventory blob:\n%s", lines)
	}
}

// pyParamCalc is enginetest.CalcFiles with a parametrized test_add: two of
// its three cases fail.
var pyParamCalc = map[string]string{
	"pyproject.toml": enginetest.CalcFiles["pyproject.toml"],
	"calc.py":        enginetest.CalcFiles["calc.py"],
	"tests/test_calc.py": "import pytest\n\nfrom calc import add, sub\n\n\n" +
		"@pytest.mark.parametrize(\"a,b,want\", [(1, 2, 3), (0, 0, 0), (2, 2, 4)])\ndef test_add(a, b, want):\n    assert add(a, b) == want\n\n\n" +
		"def test_sub():\n    assert sub(3, 1) == 2\n",
}

// pyZeroBreakPatch fixes add() except at zero, breaking test_add[0-0-0].
const pyZeroBreakPatch = "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b if a else 1\n"

// TestFixDefaultTargetsPytestParametrized: by default the goal is every
// test failing at baseline; a patch that fixes two parametrized cases and
// breaks the third is a PASS_TO_FAIL and rolled back; the fix is FULL.
func TestFixDefaultTargetsPytestParametrized(t *testing.T) {
	s := newStack(t)
	prov, _ := s.commandProvider(t, pyZeroBreakPatch, enginetest.FixPatch)
	evs := s.fix(&glv1.FixStart{Snapshot: s.snapshot(pyParamCalc), Options: &glv1.FixOptions{Provider: prov, MaxRounds: 2}})
	fin := finished(evs)
	outs := outcomesOf(evs)
	if len(outs) != 2 {
		t.Fatalf("%d patch outcomes, want 2", len(outs))
	}
	first := outs[0].GetTransitions()
	zero := change(first, "tests/test_calc.py::test_add[0-0-0]")
	if !outs[0].GetRolledBack() || zero.GetKind() != glv1.TransitionKind_TRANSITION_KIND_PASS_TO_FAIL ||
		first.GetFailToPass() != 2 || first.GetResolution() != glv1.Resolution_RESOLUTION_NO {
		t.Errorf("first patch: rolled back %t, test_add[0-0-0] %v, transitions %v", outs[0].GetRolledBack(), zero, first)
	}
	m := fin.GetMetrics()
	tr := m.GetTransitions()
	if !m.GetGreen() || fin.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED || tr.GetResolution() != glv1.Resolution_RESOLUTION_FULL ||
		tr.GetFailToPass() != 2 || tr.GetPassToPass() != 2 || tr.GetTargetFailToPass() != 2 {
		t.Fatalf("status %s metrics %v", fin.GetStatus(), m)
	}
	for _, id := range []string{"tests/test_calc.py::test_add[1-2-3]", "tests/test_calc.py::test_add[2-2-4]"} {
		if c := change(tr, id); c.GetKind() != glv1.TransitionKind_TRANSITION_KIND_FAIL_TO_PASS || !c.GetTarget() {
			t.Errorf("%s: %v", id, c)
		}
	}
}

// blob reads a blob of the loop's store.
func (s *stack) blob(t *testing.T, d *glv1.Digest) []byte {
	t.Helper()
	dg, err := blob.DigestFromProto(d)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := s.blobs.Open(s.ctx(), dg)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
