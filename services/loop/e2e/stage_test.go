package e2e_test

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// plantingTest is a passing test that plants the force-pass plugin into
// the run's own .venv: what a malicious test (or a fix round's patch) can
// always do to its own sandbox.
const plantingTest = `import os, sys


def test_plant():
    site = [p for p in sys.path if p.endswith("site-packages") and "/.venv/" in p][0]
    open(os.path.join(site, "zz_evil.pth"), "w").write(` + "\"import os; os.environ['PYTEST_PLUGINS'] = 'zz_evil_plugin'\\n\"" + `)
    open(os.path.join(site, "zz_evil_plugin.py"), "w").write(` + "'''" + evilPlugin + "'''" + `)
`

// Staged sandboxes (executor, stage.go) hold fresh copies of the cache's
// entries, never the state a finished run left: a verification whose test
// plants a plugin in its .venv does not hand it to the owner's next
// verification, even when that one is served from a staged sandbox.
func TestStagedSandboxCarriesNothingFromTheRunBefore(t *testing.T) {
	s := newPooledStack(t)
	planter := buggyProject()
	planter["tests/test_plant.py"] = plantingTest
	first := finished(s.verify(&glv1.VerifyRequest{Snapshot: s.snapshot(planter)}))
	if res := first.GetResult(); res.GetStatus() != glv1.Verdict_VERDICT_FAIL || res.GetCounts().GetPassed() != 1 {
		t.Fatalf("the planting run ended %s with counts %v (want test_plant passing, test_add failing): %s",
			res.GetStatus(), res.GetCounts(), res.GetSummary())
	}
	staged := false
	for attempt := 0; attempt < 10 && !staged; attempt++ {
		evs := s.verify(&glv1.VerifyRequest{Snapshot: s.snapshot(buggyProject())})
		for _, ev := range evs {
			if c := ev.GetLogChunk(); c != nil && strings.Contains(c.GetData(), "restored before the run (staged sandbox)") {
				staged = true
			}
		}
		res := finished(evs).GetResult()
		if res.GetStatus() != glv1.Verdict_VERDICT_FAIL || res.GetCounts().GetFailed() != 1 {
			t.Fatalf("verification %d (staged sandbox: %v) ended %s with counts %v: %s",
				attempt+2, staged, res.GetStatus(), res.GetCounts(), res.GetSummary())
		}
	}
	if !staged {
		t.Fatal("no verification was served from a staged sandbox")
	}
}
