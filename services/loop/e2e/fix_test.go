package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

// commandProvider sets up the stack's COMMAND profile to answer request n
// with patches[n-1] (the last one again after that) and to record each
// request in the returned directory.
func (s *stack) commandProvider(t testing.TB, patches ...string) (*glv1.ProviderConfig, string) {
	t.Helper()
	dir := s.providerDir
	files := map[string]string{"provider.sh": `cat > "request-$(ls request-* 2>/dev/null | wc -l).json"
n=$(ls request-* | wc -l)
f="patch-$n.diff"
[ -f "$f" ] || f="patch-last.diff"
cat "$f"
`}
	for i, p := range patches {
		files[fmt.Sprintf("patch-%d.diff", i+1)] = p
	}
	files["patch-last.diff"] = patches[len(patches)-1]
	enginetest.WriteFiles(t, dir, files)
	return &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_COMMAND, Profile: "e2e",
		Timeout: durationpb.New(30 * time.Second)}, dir
}

// eventCount counts events for which has is true.
func eventCount(evs []*glv1.RunEvent, has func(*glv1.RunEvent) bool) int {
	n := 0
	for _, ev := range evs {
		if has(ev) {
			n++
		}
	}
	return n
}

func TestFixOneLineBugGreenInRoundOne(t *testing.T) {
	s := newStack(t)
	prov, dir := s.commandProvider(t, enginetest.FixPatch)
	evs := s.fix(&glv1.FixStart{Snapshot: s.snapshot(enginetest.CalcFiles), Options: &glv1.FixOptions{Provider: prov}})
	fin := finished(evs)
	m := fin.GetMetrics()
	if fin.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED || !m.GetGreen() || m.GetAttemptsToGreen() != 1 || m.GetRounds() != 1 {
		t.Fatalf("status %s metrics %v: %s", fin.GetStatus(), m, fin.GetResult().GetSummary())
	}
	if m.GetPatchLines() != 2 || m.GetRollbacks() != 0 || m.GetTimeToGreen().AsDuration() <= 0 {
		t.Errorf("metrics %v", m)
	}
	// The provider got the real failure evidence as JSON on stdin.
	req, err := os.ReadFile(filepath.Join(dir, "request-0.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pytest", "test_add", "assert", "calc.py"} {
		if !strings.Contains(string(req), want) {
			t.Errorf("request lacks %q: %.400s", want, req)
		}
	}
	if fin.GetResult().GetCounts().GetPassed() != 2 {
		t.Errorf("final counts %v", fin.GetResult().GetCounts())
	}
}

// Fail-fast off: the breaking patch gets its full verification, which
// sees the regression (TestFixFailFastWithRealPytest covers the default).
func TestFixRollsBackTwiceThenGreenInRoundThree(t *testing.T) {
	s := newStack(t)
	prov, _ := s.commandProvider(t, enginetest.NonApplyingPatch, enginetest.BreakingPatch, enginetest.FixPatch)
	evs := s.fix(&glv1.FixStart{Snapshot: s.snapshot(enginetest.CalcFiles), Options: &glv1.FixOptions{Provider: prov, FailFast: proto.Bool(false)}})
	fin := finished(evs)
	m := fin.GetMetrics()
	if !m.GetGreen() || m.GetAttemptsToGreen() != 3 || m.GetRollbacks() != 2 || m.GetStopReason() != "green" {
		t.Fatalf("metrics %v: %s", m, fin.GetResult().GetSummary())
	}
	var outcomes []*glv1.PatchOutcome
	for _, ev := range evs {
		if o := ev.GetPatchEvaluated().GetOutcome(); o != nil {
			outcomes = append(outcomes, o)
		}
	}
	if len(outcomes) != 3 || outcomes[0].GetApplied() || !outcomes[1].GetRolledBack() ||
		outcomes[1].GetFailingAfter() <= outcomes[1].GetFailingBefore() || outcomes[2].GetRolledBack() {
		t.Fatalf("outcomes %v", outcomes)
	}
}

func TestFixProviderThatNeverFixesStopsAtMaxRounds(t *testing.T) {
	s := newStack(t)
	prov, _ := s.commandProvider(t, enginetest.BreakingPatch)
	evs := s.fix(&glv1.FixStart{Snapshot: s.snapshot(enginetest.CalcFiles), Options: &glv1.FixOptions{Provider: prov}})
	fin := finished(evs)
	m := fin.GetMetrics()
	if fin.GetStatus() != glv1.RunStatus_RUN_STATUS_FAILED || m.GetGreen() || m.GetStopReason() != "max_rounds" || m.GetRounds() != 3 {
		t.Fatalf("status %s metrics %v", fin.GetStatus(), m)
	}
	if n := eventCount(evs, func(ev *glv1.RunEvent) bool { return ev.GetVerifyFailedMaxRetries() != nil }); n != 1 {
		t.Errorf("%d VerifyFailedMaxRetries events", n)
	}
	memo := fin.GetResult().GetStopMemo()
	for _, want := range []string{"round limit of 3", "pytest", "test_add", "Patch attempts", "Next steps"} {
		if !strings.Contains(memo, want) {
			t.Errorf("stop memo lacks %q:\n%s", want, memo)
		}
	}
}

// slowCalc is the fixed project plus a test that sleeps 30 s.
func slowCalc() map[string]string {
	files := fixedCalc()
	files["tests/test_slow.py"] = "import time\n\n\ndef test_slow():\n    time.sleep(30)\n"
	return files
}

func TestFixTimeBudgetStopsASlowRun(t *testing.T) {
	s := newStack(t)
	prov, _ := s.commandProvider(t, enginetest.FixPatch)
	start := time.Now()
	evs := s.fix(&glv1.FixStart{Snapshot: s.snapshot(slowCalc()), Options: &glv1.FixOptions{
		Provider: prov, TimeBudget: durationpb.New(5 * time.Second)}})
	took := time.Since(start)
	fin := finished(evs)
	if fin.GetMetrics().GetStopReason() != "time_budget" || fin.GetMetrics().GetGreen() {
		t.Fatalf("metrics %v: %s", fin.GetMetrics(), fin.GetResult().GetSummary())
	}
	if took > 25*time.Second {
		t.Errorf("took %v with a 5 s budget and a 30 s test", took)
	}
	if n := eventCount(evs, func(ev *glv1.RunEvent) bool { return ev.GetTierSkipped() != nil }); n == 0 {
		t.Errorf("no TierSkipped event")
	}
	if !strings.Contains(fin.GetResult().GetStopMemo(), "time budget of 5s") {
		t.Errorf("memo:\n%s", fin.GetResult().GetStopMemo())
	}
}

func TestVerifyTimeBudgetSkipsTheRest(t *testing.T) {
	s := newStack(t)
	start := time.Now()
	evs := s.verify(&glv1.VerifyRequest{Snapshot: s.snapshot(slowCalc()), Options: &glv1.VerifyOptions{
		TimeBudget: durationpb.New(5 * time.Second), MilestoneEnd: true}})
	fin := finished(evs)
	// FAILED when the budget ended the slow test; ERROR when it ran out
	// while the sandbox was still being prepared (a loaded engine): never PASSED.
	if (fin.GetStatus() != glv1.RunStatus_RUN_STATUS_FAILED && fin.GetStatus() != glv1.RunStatus_RUN_STATUS_ERROR) ||
		time.Since(start) > 25*time.Second {
		for _, st := range fin.GetResult().GetSteps() {
			t.Logf("step %s %s tier %s exit %d: %s", st.GetName(), st.GetStatus(), st.GetTier(), st.GetExitCode(), st.GetReason())
		}
		t.Fatalf("status %s after %v: %s", fin.GetStatus(), time.Since(start), fin.GetResult().GetSummary())
	}
	var reasons []string
	for _, ev := range evs {
		if sk := ev.GetTierSkipped(); sk != nil {
			reasons = append(reasons, sk.GetTier().String()+": "+sk.GetReason())
		}
	}
	if len(reasons) == 0 || !strings.Contains(reasons[0], "time budget of 5s exhausted") {
		t.Fatalf("TierSkipped %v", reasons)
	}
	t.Logf("skipped: %v; summary: %s", reasons, fin.GetResult().GetSummary())
	for _, st := range fin.GetResult().GetSteps() {
		t.Logf("step %s %s tier %s exit %d: %s", st.GetName(), st.GetStatus(), st.GetTier(), st.GetExitCode(), st.GetReason())
	}
}
