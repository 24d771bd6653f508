package e2e_test

import (
	"strconv"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

// These tests are cheats a model can try against the verdict itself (rows
// 41, 43 and 46 of ADVERSARIAL.md), run for real: the go and python
// sandbox images, real go test and pytest.

// goBuggy is a Go module whose Double has a bug its test catches.
var goBuggy = map[string]string{
	"go.mod":  "module example.com/double\n\ngo 1.22\n",
	"calc.go": "// Package double doubles.\npackage double\n\n// Double returns 2x.\nfunc Double(x int) int { return x + 2 }\n",
	"calc_test.go": "package double\n\nimport \"testing\"\n\nfunc TestDouble(t *testing.T) {\n\tif got := Double(3); got != 6 {\n" +
		"\t\tt.Fatalf(\"Double(3) = %d, want 6\", got)\n\t}\n}\n\nfunc TestDoubleZero(t *testing.T) {\n\tif Double(0) != 0 {\n\t\tt.Skip(\"known\")\n\t}\n}\n",
}

// forceExitZeroGo is a test file whose TestMain runs the tests and exits
// 0 whatever they did.
const forceExitZeroGo = "package double\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) {\n\tm.Run()\n\tos.Exit(0)\n}\n"

// forceExitZeroConftest is a pytest hook that resets the exit status.
const forceExitZeroConftest = "def pytest_sessionfinish(session, exitstatus):\n    session.exitstatus = 0\n"

// ADVERSARIAL row 41: a workspace whose TestMain (Go) or pytest hook
// forces exit status 0 while tests fail ends FAIL: the step fails with
// rule report-disagrees, the exit code 0 recorded as it was.
func TestVerifyFailsWhenTheTestProcessForcesExitZero(t *testing.T) {
	s := newStack(t)
	for _, tc := range []struct {
		name  string
		files map[string]string
		test  string
	}{
		{"go TestMain os.Exit(0)", withAll(goBuggy, map[string]string{"zz_main_test.go": forceExitZeroGo}), "TestDouble"},
		{"pytest_sessionfinish exitstatus = 0", withFiles(map[string]string{"conftest.py": forceExitZeroConftest}), "test_add"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sub := *s
			sub.t = t
			res := finished(sub.verify(&glv1.VerifyRequest{Snapshot: sub.snapshot(tc.files), Options: &glv1.VerifyOptions{RerunFailed: true}})).GetResult()
			if res.GetStatus() != glv1.Verdict_VERDICT_FAIL {
				t.Fatalf("verdict %s, want FAIL: %s\n%s", res.GetStatus(), res.GetSummary(), res.GetTailLog())
			}
			var forged *glv1.StepResult
			for _, st := range res.GetSteps() {
				if st.GetRule() == "report-disagrees" {
					forged = st
				}
			}
			if forged == nil || forged.GetExitCode() != 0 || forged.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED {
				t.Fatalf("steps %v: want the test step FAILED with rule report-disagrees and exit 0", res.GetSteps())
			}
			if res.GetCounts().GetFlaky() != 0 || !strings.Contains(res.GetSummary(), "report-disagrees") {
				t.Errorf("counts %v, summary %q: want no flaky test and the rule named", res.GetCounts(), res.GetSummary())
			}
			if !failedTestIn(res, tc.test) {
				t.Errorf("failures %v do not name %s", res.GetFailures(), tc.test)
			}
		})
	}
}

// ADVERSARIAL rows 41/42 in a fix run: a patch adding a test file (a
// TestMain forcing exit 0, a conftest or test module registering a
// plugin) is refused with rule test-addition; the run is not green.
func TestFixRefusesNewTestFiles(t *testing.T) {
	s := newStack(t)
	for _, tc := range []struct {
		name  string
		files map[string]string
		patch string
		path  string
	}{
		{"go zz_main_test.go", goBuggy, addFile("zz_main_test.go", forceExitZeroGo), "zz_main_test.go"},
		{"pytest module with pytest_plugins", enginetest.CalcFiles, addFile("tests/test_zz.py", "pytest_plugins = ['calc']\n"), "tests/test_zz.py"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sub := *s
			sub.t = t
			evs := sub.fixWithClient(&glv1.FixOptions{MaxRounds: 1}, sub.snapshot(tc.files), tc.patch)
			outs, fin := outcomes(evs), finished(evs)
			if len(outs) != 1 || outs[0].GetApplied() || outs[0].GetRule() != "test-addition" || !strings.Contains(outs[0].GetReason(), tc.path) {
				t.Fatalf("outcomes %v, want the patch refused with rule test-addition naming %s", outs, tc.path)
			}
			if fin.GetMetrics().GetGreen() || fin.GetStatus() == glv1.RunStatus_RUN_STATUS_PASSED {
				t.Errorf("status %s green %t: %s", fin.GetStatus(), fin.GetMetrics().GetGreen(), fin.GetResult().GetSummary())
			}
		})
	}
}

// selectedByName is CalcFiles whose add() is right only when pytest was
// asked for tests by node id, as a narrowed re-run asks.
func selectedByName() map[string]string {
	return withFiles(map[string]string{"calc.py": "import sys\n\n\ndef add(a, b):\n" +
		"    if any('::' in arg for arg in sys.argv):\n        return a + b\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n"})
}

// ADVERSARIAL row 43: library code that fixes the bug only when tests are
// selected by name is never called flaky: the identical re-run of the
// whole step fails as the first run did, and the verdict is FAIL.
func TestCodeRightOnlyUnderANarrowedRunIsNeverFlaky(t *testing.T) {
	s := newStack(t)
	res := finished(s.verify(&glv1.VerifyRequest{Snapshot: s.snapshot(selectedByName()), Options: &glv1.VerifyOptions{RerunFailed: true}})).GetResult()
	if res.GetStatus() != glv1.Verdict_VERDICT_FAIL || res.GetCounts().GetFlaky() != 0 {
		t.Fatalf("verdict %s counts %v, want FAIL with no flaky test: %s", res.GetStatus(), res.GetCounts(), res.GetSummary())
	}
	if !strings.Contains(res.GetSummary(), "failed again on re-run") {
		t.Errorf("summary %q: want the identical re-run to have failed again", res.GetSummary())
	}
}

// addFile is a unified diff adding one file.
func addFile(path, content string) string {
	lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	var b strings.Builder
	b.WriteString("--- /dev/null\n+++ b/" + path + "\n")
	b.WriteString("@@ -0,0 +1," + strconv.Itoa(len(lines)) + " @@\n")
	for _, l := range lines {
		b.WriteString("+" + l + "\n")
	}
	return b.String()
}

// failedTestIn reports whether a result's failures name the test.
func failedTestIn(res *glv1.Result, name string) bool {
	for _, f := range res.GetFailures() {
		if strings.Contains(f.GetTest(), name) {
			return true
		}
	}
	return false
}
