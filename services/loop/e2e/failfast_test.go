package e2e_test

import (
	"strings"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

// fail_fast in a real sandbox: the breaking patch is rolled back after
// pytest ran only the failing test (narrowed with its node id), then the
// fix gets the full verification and goes green.
func TestFixFailFastWithRealPytest(t *testing.T) {
	s := newStack(t)
	prov, _ := s.commandProvider(t, enginetest.BreakingPatch, enginetest.FixPatch)
	evs := s.fix(&glv1.FixStart{Snapshot: s.snapshot(enginetest.CalcFiles), Options: &glv1.FixOptions{Provider: prov, FailFast: true}})
	fin := finished(evs)
	m := fin.GetMetrics()
	if fin.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED || m.GetAttemptsToGreen() != 2 || m.GetRollbacks() != 1 {
		t.Fatalf("status %s metrics %v: %s", fin.GetStatus(), m, fin.GetResult().GetSummary())
	}
	var first *glv1.PatchOutcome
	var probeCommand string
	for _, ev := range evs {
		if o := ev.GetPatchEvaluated().GetOutcome(); o != nil && first == nil {
			first = o
		}
		if st := ev.GetStepStarted().GetStep(); strings.HasSuffix(st.GetName(), ":probe") && probeCommand == "" {
			probeCommand = st.GetCommand()
		}
	}
	if first.GetRule() != "still-failing" || !strings.Contains(first.GetReason(), "1 failing (1 before the patch)") {
		t.Fatalf("first patch: %v", first)
	}
	if !strings.Contains(probeCommand, "test_add") || strings.Contains(probeCommand, "test_sub") {
		t.Errorf("the probe must run the failing test alone: %q", probeCommand)
	}
	if n := eventCount(evs, func(ev *glv1.RunEvent) bool { return ev.GetVerificationDone() != nil }); n != 2 {
		t.Errorf("%d full verifications, want 2 (baseline, the fix)", n)
	}
}

// BenchmarkFailFastRoundVsColdVerify: the round of a patch that fixes
// nothing, with fail_fast (the failing test alone, after the install steps
// from the dependency cache), against a cold verification of the same
// project on a fresh stack (no pool, empty caches), in the same run. Two
// projects: the tiny calc one (two tests) and calc with a suite that takes
// 5 s (a test sleeping, standing for a larger suite), where running only
// the failing test is what saves time.
func BenchmarkFailFastRoundVsColdVerify(b *testing.B) {
	slowSuite := map[string]string{}
	for k, v := range enginetest.CalcFiles {
		slowSuite[k] = v
	}
	slowSuite["tests/test_suite.py"] = "import time\n\n\ndef test_rest_of_the_suite():\n    time.sleep(5)\n"
	for _, c := range []struct {
		name  string
		files map[string]string
	}{{"calc", enginetest.CalcFiles}, {"calc+5s-suite", slowSuite}} {
		b.Run(c.name, func(b *testing.B) { benchFailFast(b, c.files) })
	}
}

func benchFailFast(b *testing.B, files map[string]string) {
	var round, cold time.Duration
	n := 0
	for b.Loop() {
		s := newStack(b)
		prov, _ := s.commandProvider(b, enginetest.BreakingPatch, enginetest.FixPatch)
		evs := s.fix(&glv1.FixStart{Snapshot: s.snapshot(files), Options: &glv1.FixOptions{Provider: prov, FailFast: true}})
		var started, evaluated time.Time
		for _, ev := range evs {
			if ev.GetRoundStarted() != nil && started.IsZero() {
				started = ev.GetTime().AsTime()
			}
			if o := ev.GetPatchEvaluated().GetOutcome(); o != nil && evaluated.IsZero() {
				if o.GetRule() != "still-failing" {
					b.Fatalf("the breaking patch was not rolled back by the probe: %v", o)
				}
				evaluated = ev.GetTime().AsTime()
			}
		}
		round += evaluated.Sub(started)
		c := newStack(b)
		start := time.Now()
		c.verify(&glv1.VerifyRequest{Snapshot: c.snapshot(files)})
		cold += time.Since(start)
		n++
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
	b.ReportMetric(ms(round), "fail-fast-round-ms/op")
	b.ReportMetric(ms(cold), "cold-verify-ms/op")
	b.ReportMetric(float64(cold)/float64(round), "x-faster")
}
