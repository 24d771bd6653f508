package e2e_test

import (
	"slices"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// An order dependency is no flakiness: the identical re-run of the whole
// step (a fresh container, the same command) fails as the first run did,
// so the projects below FAIL. Only a test whose outcome really varies
// between identical runs (a race) is flaky; racyPython has one.

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

// racyPython has a test that races a thread against a timer: it fails or
// passes by timing alone, about half the time, under identical runs.
var racyPython = map[string]string{
	"pyproject.toml": "[project]\nname = \"racy\"\nversion = \"0.1.0\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n",
	"tests/test_race.py": `import random
import threading
import time


def test_stable():
    assert 1 + 1 == 2


def test_race():
    box = []

    def writer():
        time.sleep(random.uniform(0, 0.02))
        box.append(1)

    t = threading.Thread(target=writer)
    t.start()
    time.sleep(0.01)
    seen = len(box)  # races the writer
    t.join()
    assert seen == 1
`,
}

func TestVerifyRerunFailedMarksFlakyTests(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		// step is the planned test step.
		step string
	}{
		{"pytest order dependency", flakyPython, "pytest"},
		// A project with dependencies runs pytest with the venv's python,
		// and so must its re-run (Debian has no `python`).
		{"pytest order dependency in a venv", flakyPythonInVenv(), "pytest"},
		{"go test order dependency", flakyGo, "go-test"},
	}
	s := newStack(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sub := *s
			sub.t = t
			res := finished(sub.verify(&glv1.VerifyRequest{Snapshot: sub.snapshot(tc.files), Options: &glv1.VerifyOptions{RerunFailed: true}})).GetResult()
			if res.GetStatus() != glv1.Verdict_VERDICT_FAIL || res.GetCounts().GetFlaky() != 0 {
				t.Fatalf("verdict %s counts %v, want FAIL with no flaky test: an order dependency fails its identical re-run too: %s\n%s",
					res.GetStatus(), res.GetCounts(), res.GetSummary(), res.GetTailLog())
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
			if rerun == nil || rerun.GetCommand() != orig.GetCommand() || rerun.GetImage() != orig.GetImage() ||
				rerun.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED {
				t.Errorf("step %v\nre-run %v, want an identical re-run (same command and image) that failed again", orig, rerun)
			}
			if !strings.Contains(res.GetSummary(), "failed again on re-run") {
				t.Errorf("summary %q", res.GetSummary())
			}
		})
	}
	t.Run("a racy test is flaky", func(t *testing.T) {
		sub := *s
		sub.t = t
		snap := sub.snapshot(racyPython)
		// The race fails about half the runs; 30 runs miss a
		// fail-then-pass pair with probability 0.75^30 (2e-4).
		for i := 0; i < 30; i++ {
			res := finished(sub.verify(&glv1.VerifyRequest{Snapshot: snap, Options: &glv1.VerifyOptions{RerunFailed: true}})).GetResult()
			c := res.GetCounts()
			switch {
			case res.GetStatus() == glv1.Verdict_VERDICT_PASS && c.GetFlaky() == 1:
				j := slices.IndexFunc(res.GetFailures(), func(f *glv1.Failure) bool { return f.GetTest() == "tests/test_race.py::test_race" })
				if j < 0 || !res.GetFailures()[j].GetFlaky() || !strings.Contains(res.GetSummary(), "marked flaky: tests/test_race.py::test_race") {
					t.Fatalf("run %d: failures %v summary %q, want test_race kept and marked flaky", i, res.GetFailures(), res.GetSummary())
				}
				t.Logf("run %d: test_race failed, then passed on the identical re-run: flaky", i)
				return
			case res.GetStatus() == glv1.Verdict_VERDICT_PASS && c.GetFailed() == 0:
				// The first run won the race: nothing to re-run.
			case res.GetStatus() == glv1.Verdict_VERDICT_FAIL && strings.Contains(res.GetSummary(), "failed again on re-run"):
				// Lost the race twice.
			default:
				t.Fatalf("run %d: verdict %s counts %v: %s\n%s", i, res.GetStatus(), c, res.GetSummary(), res.GetTailLog())
			}
		}
		t.Fatal("30 runs never showed test_race failing and then passing on its identical re-run")
	})
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
