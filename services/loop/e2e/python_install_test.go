package e2e_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestPythonProjectWithoutItsBuildBackend: a src layout built by flit_core,
// which the offline Python image lacks, cannot be installed (pip needs the
// package index for the backend). pip-install (advisory) fails and is not
// cached, pip-fallback says so, and the tests run from the checkout with
// PYTHONPATH=src: the fixture PASSes on its tests, and the same fixture
// with a bug FAILs naming the test, so the fallback never decides the
// verdict.
func TestPythonProjectWithoutItsBuildBackend(t *testing.T) {
	integration(t)
	s := newStack(t)
	t.Run("passes from the checkout", func(t *testing.T) {
		sub := *s
		sub.t = t
		r := sub.verifyFixture("python-flit-src", nil)
		if got := r.result.GetStatus(); got != glv1.Verdict_VERDICT_PASS {
			t.Fatalf("verdict %s, want PASS: %s\n%s", got, r.result.GetSummary(), r.result.GetTailLog())
		}
		fellBack(t, r)
		testsPassed(t, r, "pytest", "", 2)
	})
	t.Run("fails naming the test", func(t *testing.T) {
		sub := *s
		sub.t = t
		r := sub.verifyFixture("python-flit-src-failing", nil)
		if got := r.result.GetStatus(); got != glv1.Verdict_VERDICT_FAIL {
			t.Fatalf("verdict %s, want FAIL: %s\n%s", got, r.result.GetSummary(), r.result.GetTailLog())
		}
		fellBack(t, r)
		if st := r.step(t, "pytest"); st.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED || st.GetCounts().GetFailed() != 1 {
			t.Errorf("pytest %s counts %v, want FAILED with 1 failed", st.GetStatus(), st.GetCounts())
		}
		want := "tests/test_flitcalc.py:" + strconv.Itoa(lineOf(t, "python-flit-src-failing/tests/test_flitcalc.py", "assert mul(2, 3) == 6"))
		var at []string
		named := false
		for _, f := range r.result.GetFailures() {
			at = append(at, f.GetTest()+"@"+f.GetFile()+":"+strconv.Itoa(int(f.GetLine())))
			named = named || (strings.Contains(f.GetTest(), "test_mul") && f.GetFile()+":"+strconv.Itoa(int(f.GetLine())) == want)
		}
		if !named {
			t.Errorf("failures %v do not name test_mul at %s", at, want)
		}
	})
}

// fellBack checks that pip-install failed as an advisory step and
// pip-fallback said the project runs from the checkout.
func fellBack(t *testing.T, r *planRun) {
	t.Helper()
	install := r.step(t, "pip-install")
	if install.GetStatus() == glv1.StepStatus_STEP_STATUS_OK || !install.GetOptional() {
		t.Errorf("pip-install %s optional=%v, want an advisory failure (flit_core is not in the image)", install.GetStatus(), install.GetOptional())
	}
	fb := r.step(t, "pip-fallback")
	if fb.GetStatus() != glv1.StepStatus_STEP_STATUS_OK || !strings.Contains(fb.GetTail(), "tests run from the checkout with PYTHONPATH=src") {
		t.Errorf("pip-fallback %s, want OK saying the tests run from the checkout:\n%s", fb.GetStatus(), fb.GetTail())
	}
	if !slices.ContainsFunc(r.result.GetSteps(), func(st *glv1.StepResult) bool { return st.GetName() == "pytest" }) {
		t.Errorf("no pytest step: %v", stepNames(r.result))
	}
}

// TestPythonUnittestProject: a project that names only unittest is tested
// with unittest discovery and its tests are counted.
func TestPythonUnittestProject(t *testing.T) {
	integration(t)
	s := newStack(t)
	r := s.verifyFixture("python-unittest", nil)
	if got := r.result.GetStatus(); got != glv1.Verdict_VERDICT_PASS {
		t.Fatalf("verdict %s, want PASS: %s\n%s", got, r.result.GetSummary(), r.result.GetTailLog())
	}
	allOK(t, r)
	testsPassed(t, r, "unittest", "", 2)
}
