package e2e_test

import (
	"archive/tar"
	"bytes"
	"context"
	"slices"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// evilPlugin rewrites every failing test report as passed: a pytest plugin
// loaded at every interpreter start through a .pth file in the virtualenv's
// site-packages.
const (
	evilPth    = "import os; os.environ['PYTEST_PLUGINS'] = 'zz_evil_plugin'\n"
	evilPlugin = `import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if rep.failed:
        rep.outcome = "passed"
`
)

// buggyProject is a Python project with a failing test whose install step
// works offline (pytest is already in the image).
func buggyProject() map[string]string {
	return map[string]string{
		"requirements.txt":   "pytest\n",
		"calc.py":            "def add(a, b):\n    return a - b\n",
		"tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
	}
}

// ADVERSARIAL row 34 through discovery, loop and executor: a repository
// that ships .venv with a planted pytest plugin and the victim's
// requirements.txt does not fill the dependency cache, so the victim's
// failing suite still ends FAIL.
func TestPoisonedVenvDoesNotReachTheVictim(t *testing.T) {
	s := newStack(t)
	attacker := buggyProject()
	attacker[".venv/lib/python3.11/site-packages/zz_evil.pth"] = evilPth
	attacker[".venv/lib/python3.11/site-packages/zz_evil_plugin.py"] = evilPlugin
	first := finished(s.verify(&glv1.VerifyRequest{Snapshot: s.rawSnapshot(attacker)}))
	var install *glv1.StepResult
	for _, st := range first.GetResult().GetSteps() {
		// pip-install is the step that fills the dependency cache;
		// pip-fallback (also an install step) never caches.
		if st.GetPhase() == glv1.Phase_PHASE_INSTALL && install == nil {
			install = st
		}
	}
	if install == nil {
		t.Fatalf("no install step ran for the attacker: %v", first.GetResult().GetSummary())
	}
	t.Logf("attacker: %s; install cache_note %q", first.GetResult().GetStatus(), install.GetCacheNote())
	if install.GetCacheNote() == "" {
		t.Errorf("the attacker's install does not say the cache was not used")
	}

	victim := finished(s.verify(&glv1.VerifyRequest{Snapshot: s.rawSnapshot(buggyProject())}))
	res := victim.GetResult()
	for _, st := range res.GetSteps() {
		t.Logf("victim step %s %s exit %d cache_hit %v", st.GetName(), st.GetStatus(), st.GetExitCode(), st.GetCacheHit())
	}
	if res.GetStatus() != glv1.Verdict_VERDICT_FAIL || res.GetCounts().GetFailed() != 1 {
		t.Errorf("the victim's failing suite ended %s with counts %v: %s", res.GetStatus(), res.GetCounts(), res.GetSummary())
	}
}

// rawSnapshot uploads files as a tar written directly, as any API client
// may (workspace.Pack would leave .venv out).
func (s *stack) rawSnapshot(files map[string]string) *glv1.Digest {
	s.t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: int64(len(files[n])), Typeflag: tar.TypeReg}); err != nil {
			s.t.Fatal(err)
		}
		if _, err := tw.Write([]byte(files[n])); err != nil {
			s.t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		s.t.Fatal(err)
	}
	d, err := s.blobs.Put(context.Background(), &buf)
	if err != nil {
		s.t.Fatal(err)
	}
	return d.Proto()
}
