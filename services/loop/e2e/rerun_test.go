package e2e_test

import (
	"slices"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// The flaky projects below need flakiness that is deterministic, or the
// test could not fail reliably. Every Execute call is a fresh container
// from the same snapshot, so nothing carried over between the first run
// and the re-run (a file in /tmp, a counter) can tell them apart, and
// time- or random-based flakiness would make this test flaky itself. What
// does differ is what runs: the re-run runs only the failing tests. So
// the flaky test here is order-dependent — it fails after an earlier test
// of the suite leaked state into a module-level cache, and passes when run
// alone — the kind of flakiness (test-order dependency) that studies of
// real flaky tests find among the most common, and exactly what a re-run
// of only the failing tests exposes.

// flakyPython is a pytest project whose test_cold_lookup fails after
// test_warm_cache and passes alone.
var flakyPython = map[string]string{
	"pyproject.toml": "[project]\nname = \"cache\"\nversion = \"0.1.0\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n",
	"cache/__init__.py": `"""A lookup with a module-level cache."""

CACHE = {}


def lookup(key):
    return CACHE.get(key, "hello")
`,
	"tests/test_cache.py": `from cache import CACHE, lookup


def test_warm_cache():
    CACHE["greeting"] = "stale"  # leaks into the tests that run after it
    assert lookup("greeting") == "stale"


def test_cold_lookup():
    assert lookup("greeting") == "hello"
`,
}

// flakyGo is the same order dependency in Go: TestColdLookup fails after
// TestWarmCache and passes alone.
var flakyGo = map[string]string{
	"go.mod": "module example.com/cache\n\ngo 1.22\n",
	"cache.go": `// Package cache looks things up.
package cache

// Cache is shared by every caller.
var Cache = map[string]string{}

// Lookup returns the cached value or "hello".
func Lookup(key string) string {
	if v, ok := Cache[key]; ok {
		return v
	}
	return "hello"
}
`,
	"cache_test.go": `package cache

import "testing"

func TestWarmCache(t *testing.T) {
	Cache["greeting"] = "stale" // leaks into the tests that run after it
	if Lookup("greeting") != "stale" {
		t.Fatal("cache not used")
	}
}

func TestColdLookup(t *testing.T) {
	if got := Lookup("greeting"); got != "hello" {
		t.Fatalf("Lookup = %q, want hello", got)
	}
}
`,
}

// flakyPythonInVenv is flakyPython with a dependency (a vendored wheel
// installed into .venv), and no test of its own.
func flakyPythonInVenv() map[string]string {
	files := withAll(flakyPython, vendoredDeps(1, 2))
	delete(files, "tests/test_deps.py")
	return files
}

func TestVerifyRerunFailedMarksFlakyTests(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		// baseline also verifies without rerun_failed (skipped for Go,
		// whose runs are slow: the step's own FAILED status shows the
		// first run failed all the same).
		baseline bool
		// step is the planned test step.
		step string
		// rerun is the re-run command greenlight derives.
		rerun string
		flaky string
	}{
		{"pytest", flakyPython, true, "pytest", "python3 -m pytest -rA 'tests/test_cache.py::test_cold_lookup'", "tests/test_cache.py::test_cold_lookup"},
		// A project with dependencies runs pytest with the venv's python,
		// and so must its re-run (Debian has no `python`).
		{"pytest in a venv", flakyPythonInVenv(), false, "pytest",
			".venv/bin/python -m pytest -rA 'tests/test_cache.py::test_cold_lookup'", "tests/test_cache.py::test_cold_lookup"},
		{"go test", flakyGo, false, "go-test", "go test -json -count=1 -run '^(TestColdLookup)$' example.com/cache", "example.com/cache.TestColdLookup"},
	}
	s := newStack(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sub := *s
			sub.t = t
			snap := sub.snapshot(tc.files)
			// Without rerun_failed the order-dependent failure fails the run
			// and nothing runs again.
			if tc.baseline {
				res := finished(sub.verify(&glv1.VerifyRequest{Snapshot: snap})).GetResult()
				if res.GetStatus() != glv1.Verdict_VERDICT_FAIL || res.GetCounts().GetFailed() != 1 || len(res.GetSteps()) != 2 {
					t.Fatalf("without re-run: %s counts %v steps %v, want FAIL with 1 failed and no re-run\n%s",
						res.GetStatus(), res.GetCounts(), stepNames(res), res.GetTailLog())
				}
			}
			evs := sub.verify(&glv1.VerifyRequest{Snapshot: snap, Options: &glv1.VerifyOptions{RerunFailed: true}})
			res := finished(evs).GetResult()
			for _, st := range res.GetSteps() {
				t.Logf("step %-20s %-20s exit %d counts %v: %s %s", st.GetName(), st.GetStatus(), st.GetExitCode(), st.GetCounts(), st.GetCommand(), st.GetReason())
				if st.GetStatus() != glv1.StepStatus_STEP_STATUS_OK && !strings.HasPrefix(st.GetName(), tc.step) {
					t.Logf("unexpected failure of %s:\n%s", st.GetName(), st.GetTail())
				}
			}
			if res.GetStatus() != glv1.Verdict_VERDICT_PASS {
				t.Fatalf("verdict %s, want PASS after the flaky test passed on re-run: %s\n%s", res.GetStatus(), res.GetSummary(), res.GetTailLog())
			}
			if c := res.GetCounts(); c.GetPassed() != 2 || c.GetFailed() != 0 || c.GetFlaky() != 1 {
				t.Errorf("counts %v, want 2 passed, 1 of them flaky", c)
			}
			var rerun, orig *glv1.StepResult
			for _, st := range res.GetSteps() {
				switch st.GetName() {
				case tc.step:
					orig = st
				case tc.step + ":rerun":
					rerun = st
				}
			}
			// The original failure stays recorded: the step FAILED, its
			// failure is kept and marked flaky.
			if orig.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED || rerun.GetStatus() != glv1.StepStatus_STEP_STATUS_OK ||
				rerun.GetCommand() != tc.rerun || rerun.GetImage() != orig.GetImage() {
				t.Errorf("step %v\nre-run %v, want the failed step and an OK re-run of %q in its image", orig, rerun, tc.rerun)
			}
			i := slices.IndexFunc(res.GetFailures(), func(f *glv1.Failure) bool { return f.GetTest() == tc.flaky })
			if i < 0 || !res.GetFailures()[i].GetFlaky() {
				t.Errorf("failures %v, want %s kept and marked flaky", res.GetFailures(), tc.flaky)
			}
			if !strings.Contains(res.GetSummary(), "marked flaky: "+tc.flaky) {
				t.Errorf("summary %q does not name the flaky test", res.GetSummary())
			}
		})
	}
	t.Run("a real failure fails again", func(t *testing.T) {
		sub := *s
		sub.t = t
		r := sub.verifyFixture("python-failing", &glv1.VerifyOptions{RerunFailed: true})
		if r.result.GetStatus() != glv1.Verdict_VERDICT_FAIL || r.result.GetCounts().GetFlaky() != 0 || r.result.GetCounts().GetFailed() != 1 {
			t.Fatalf("%s counts %v, want FAIL with the failure kept: %s", r.result.GetStatus(), r.result.GetCounts(), r.result.GetSummary())
		}
		if st := r.step(t, "pytest:rerun"); st.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED {
			t.Errorf("re-run %s, want FAILED again", st.GetStatus())
		}
		if !strings.Contains(r.result.GetSummary(), "failed again on re-run") {
			t.Errorf("summary %q", r.result.GetSummary())
		}
	})
}
