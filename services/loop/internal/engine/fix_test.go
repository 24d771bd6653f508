package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
	"github.com/greenlight-dev/greenlight/services/loop/internal/verdict"
)

func TestFixGreenInRoundOne(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	snap := h.snapshot(enginetest.CalcFiles)
	run, evs, prov := h.fix(&glv1.FixOptions{}, snap,
		scriptedReply{patch: "Here is the fix:\n<patch>\n" + enginetest.FixPatch + "</patch>\n", usage: &glv1.Usage{PromptTokens: 100, CompletionTokens: 20, Cost: 0.01}})

	m := run.GetMetrics()
	if run.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED || !m.GetGreen() || m.GetStopReason() != engine.StopGreen {
		t.Fatalf("status %s metrics %v", run.GetStatus(), m)
	}
	if m.GetRounds() != 1 || m.GetAttemptsToGreen() != 1 || m.GetRollbacks() != 0 || m.GetPatchLines() != 2 {
		t.Errorf("metrics %v", m)
	}
	if m.GetTimeToGreen().AsDuration() <= 0 || m.GetUsage().GetPromptTokens() != 100 || m.GetUsage().GetCost() != 0.01 {
		t.Errorf("time/usage %v", m)
	}
	if len(run.GetPatches()) != 1 {
		t.Fatalf("patches %v", run.GetPatches())
	}
	p := run.GetPatches()[0]
	if !p.GetApplied() || p.GetRolledBack() || p.GetFailingBefore() != 1 || p.GetFailingAfter() != 0 ||
		p.GetSnapshotBefore().GetHash() != snap.GetHash() || p.GetSnapshotAfter().GetHash() == snap.GetHash() {
		t.Errorf("outcome %v", p)
	}
	if run.GetCurrentSnapshot().GetHash() != p.GetSnapshotAfter().GetHash() || run.GetSnapshot().GetHash() != snap.GetHash() {
		t.Errorf("snapshots: original %v current %v", run.GetSnapshot(), run.GetCurrentSnapshot())
	}
	files := patchedFiles(t, h, run.GetCurrentSnapshot())
	if !strings.Contains(files["calc.py"], "return a + b") || files["tests/test_calc.py"] != enginetest.CalcFiles["tests/test_calc.py"] {
		t.Errorf("patched snapshot calc.py = %q", files["calc.py"])
	}
	for _, k := range []string{"verify_failed_retry", "round_started", "patch_evaluated"} {
		if count(evs, k) != 1 {
			t.Errorf("%d %s events: %v", count(evs, k), k, kinds(evs))
		}
	}
	if count(evs, "verification_done") != 2 || count(evs, "verify_failed_max_retries") != 0 {
		t.Errorf("events %v", kinds(evs))
	}
	req := prov.Requests()[0]
	if req.GetAttempt() != 1 || req.GetFailingCommand() != "python3 -m pytest -rA" || req.GetExitCode() != 1 ||
		!strings.Contains(req.GetLogTail(), "assert -1 == 3") || len(req.GetFailures()) == 0 {
		t.Errorf("request %v", req)
	}
	// The function under test first, then the failing assertion.
	if w := req.GetWindows(); len(w) < 2 || w[0].GetFile() != "calc.py" || !strings.Contains(w[0].GetText(), "return a - b") ||
		!strings.Contains(w[1].GetText(), "assert add(1, 2) == 3") {
		t.Errorf("code windows %v", req.GetWindows())
	}
	if !strings.Contains(req.GetPrompt(), "python3 -m pytest -rA") || !strings.Contains(req.GetPrompt(), "<patch>") {
		t.Errorf("prompt:\n%s", req.GetPrompt())
	}
	if c := req.GetConstraints(); c.GetMaxChangedLines() == 0 || c.GetAllowTestChanges() {
		t.Errorf("constraints %v", c)
	}
	if res := run.GetResult(); res.GetStatus() != glv1.Verdict_VERDICT_PASS || res.GetStopMemo() != "" {
		t.Errorf("result %s memo %q", res.GetStatus(), res.GetStopMemo())
	}
}

// patchedFiles reads a stored snapshot.
func patchedFiles(t *testing.T, h *harness, d *glv1.Digest) map[string]string {
	t.Helper()
	bd, _ := blobDigest(d)
	rc, err := h.blobs.Open(context.Background(), bd)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	files, err := enginetest.TarFiles(rc)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestFixRollsBackThenGoesGreen(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	snap := h.snapshot(enginetest.CalcFiles)
	run, evs, prov := h.fix(&glv1.FixOptions{}, snap,
		scriptedReply{patch: enginetest.NonApplyingPatch},
		scriptedReply{patch: enginetest.BreakingPatch},
		scriptedReply{patch: enginetest.FixPatch})

	m := run.GetMetrics()
	if !m.GetGreen() || m.GetAttemptsToGreen() != 3 || m.GetRollbacks() != 2 || m.GetRounds() != 3 {
		t.Fatalf("metrics %v (events %v)", m, kinds(evs))
	}
	ps := run.GetPatches()
	if len(ps) != 3 {
		t.Fatalf("patches %v", ps)
	}
	if ps[0].GetApplied() || !ps[0].GetRolledBack() || !strings.Contains(ps[0].GetReason(), "does not apply") {
		t.Errorf("patch 1 %v", ps[0])
	}
	if !ps[1].GetApplied() || !ps[1].GetRolledBack() || ps[1].GetFailingBefore() != 1 || ps[1].GetFailingAfter() != 2 ||
		!strings.Contains(ps[1].GetReason(), "more checks fail") {
		t.Errorf("patch 2 %v", ps[1])
	}
	if !ps[2].GetApplied() || ps[2].GetRolledBack() || ps[2].GetSnapshotBefore().GetHash() != snap.GetHash() {
		t.Errorf("patch 3 %v (must apply to the original snapshot after the rollbacks)", ps[2])
	}
	reqs := prov.Requests()
	if len(reqs) != 3 || !strings.Contains(reqs[1].GetFeedback(), "does not apply") || !strings.Contains(reqs[2].GetFeedback(), "rolled back") {
		t.Fatalf("feedback: %q / %q", reqs[1].GetFeedback(), reqs[2].GetFeedback())
	}
	if !strings.Contains(reqs[2].GetPrompt(), "Feedback on the previous patch") {
		t.Errorf("prompt lacks feedback:\n%s", reqs[2].GetPrompt())
	}
	if m.GetPatchLines() != 2 {
		t.Errorf("patch lines %d, want only the accepted patch's 2", m.GetPatchLines())
	}
}

func TestFixStopsAtMaxRoundsWithStopMemo(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	run, evs, _ := h.fix(&glv1.FixOptions{MaxRounds: 2}, h.snapshot(enginetest.CalcFiles),
		scriptedReply{patch: enginetest.NonApplyingPatch},
		scriptedReply{patch: enginetest.NonApplyingPatch},
		scriptedReply{patch: enginetest.FixPatch})

	m := run.GetMetrics()
	if run.GetStatus() != glv1.RunStatus_RUN_STATUS_FAILED || m.GetGreen() || m.GetStopReason() != engine.StopMaxRounds ||
		m.GetRounds() != 2 || m.GetAttemptsToGreen() != 0 {
		t.Fatalf("status %s metrics %v", run.GetStatus(), m)
	}
	if count(evs, "verify_failed_retry") != 2 || count(evs, "verify_failed_max_retries") != 1 {
		t.Errorf("events %v", kinds(evs))
	}
	memo := run.GetResult().GetStopMemo()
	for _, want := range []string{"round limit of 2", "Patch attempts", "| 1 | false | true |", "test_add", "Attempts:** 2 of 2"} {
		if !strings.Contains(memo, want) {
			t.Errorf("memo lacks %q:\n%s", want, memo)
		}
	}
}

func TestFixStopReasons(t *testing.T) {
	tests := []struct {
		name    string
		opts    *glv1.FixOptions
		steps   []*glv1.Step
		replies []scriptedReply
		want    string
		status  glv1.RunStatus
	}{
		{"provider gives up", &glv1.FixOptions{}, enginetest.CalcSteps(), nil, engine.StopProviderGaveUp, glv1.RunStatus_RUN_STATUS_FAILED},
		{"cost budget", &glv1.FixOptions{CostBudget: 0.05}, enginetest.CalcSteps(), []scriptedReply{
			{patch: enginetest.NonApplyingPatch, usage: &glv1.Usage{Cost: 0.03}},
			{patch: enginetest.NonApplyingPatch, usage: &glv1.Usage{Cost: 0.03}},
			{patch: enginetest.FixPatch}}, engine.StopCostBudget, glv1.RunStatus_RUN_STATUS_FAILED},
		{"time budget in the provider", &glv1.FixOptions{TimeBudget: durationpb.New(time.Second)}, enginetest.CalcSteps(),
			[]scriptedReply{{patch: enginetest.FixPatch, delay: time.Minute}}, engine.StopTimeBudget, glv1.RunStatus_RUN_STATUS_FAILED},
		{"time budget in a slow step", &glv1.FixOptions{TimeBudget: durationpb.New(time.Second)},
			// The budget cut the step short: its result is unknown (rule
			// time-limit), so the run has no verdict.
			[]*glv1.Step{enginetest.Step("slow", glv1.Tier_TIER_0, glv1.Phase_PHASE_TEST, 0, 30*time.Second)},
			[]scriptedReply{{patch: enginetest.FixPatch}}, engine.StopTimeBudget, glv1.RunStatus_RUN_STATUS_ERROR},
		// Only a build step: every check passes, but without tests the
		// score is 4, below the threshold: not green, the provider is asked.
		{"passing below the threshold", &glv1.FixOptions{}, enginetest.CalcSteps()[:1], nil, engine.StopProviderGaveUp, glv1.RunStatus_RUN_STATUS_PASSED},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, engine.Config{}, tt.steps...)
			files := enginetest.CalcFiles
			start := time.Now()
			run, evs, _ := h.fix(tt.opts, h.snapshot(files), tt.replies...)
			if took := time.Since(start); took > 20*time.Second {
				t.Errorf("took %v", took)
			}
			if got := run.GetMetrics().GetStopReason(); got != tt.want || run.GetStatus() != tt.status {
				t.Fatalf("stop reason %q status %s, want %q %s (events %v, summary %s)", got, run.GetStatus(), tt.want, tt.status,
					kinds(evs), run.GetResult().GetSummary())
			}
			if tt.want != engine.StopGreen && run.GetResult().GetStopMemo() == "" {
				t.Errorf("no stop memo")
			}
		})
	}
}

func TestFixAlreadyGreenNeedsNoRound(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	run, evs, prov := h.fix(&glv1.FixOptions{}, h.snapshot(fixed()))
	m := run.GetMetrics()
	if !m.GetGreen() || m.GetRounds() != 0 || m.GetAttemptsToGreen() != 0 || len(prov.Requests()) != 0 {
		t.Fatalf("metrics %v requests %d", m, len(prov.Requests()))
	}
	if count(evs, "round_started") != 0 {
		t.Errorf("events %v", kinds(evs))
	}
}

func TestFixGuardrailRefusalIsRolledBack(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	snap := h.snapshot(enginetest.CalcFiles)
	run, _, prov := h.fix(&glv1.FixOptions{}, snap,
		scriptedReply{patch: enginetest.TestEditPatch},
		scriptedReply{patch: enginetest.FixPatch})

	ps := run.GetPatches()
	if len(ps) != 2 || ps[0].GetApplied() || !ps[0].GetRolledBack() || !strings.Contains(ps[0].GetReason(), "refused") {
		t.Fatalf("patches %v", ps)
	}
	if !strings.Contains(prov.Requests()[1].GetFeedback(), "refused") {
		t.Errorf("feedback %q", prov.Requests()[1].GetFeedback())
	}
	if !run.GetMetrics().GetGreen() || run.GetMetrics().GetRollbacks() != 1 {
		t.Errorf("metrics %v", run.GetMetrics())
	}
}

func TestFixRepoAllowListApplies(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	h.disc.SetPatchAllow("src/**")
	run, _, prov := h.fix(&glv1.FixOptions{}, h.snapshot(enginetest.CalcFiles), scriptedReply{patch: enginetest.FixPatch})
	if ps := run.GetPatches(); len(ps) != 1 || ps[0].GetApplied() || !strings.Contains(ps[0].GetReason(), "allow") {
		t.Fatalf("patches %v", ps)
	}
	if g := prov.Requests()[0].GetConstraints().GetAllowedGlobs(); len(g) != 1 || g[0] != "src/**" {
		t.Errorf("constraints %v", prov.Requests()[0].GetConstraints())
	}
}

// TestFixRollsBackBrokenPassingTest: a patch that fixes one test and
// breaks another leaves the failing count unchanged and is still rolled
// back, with or without a baseline, naming the test.
func TestFixRollsBackBrokenPassingTest(t *testing.T) {
	for _, baseline := range []bool{false, true} {
		h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
		run, _, _ := h.fix(&glv1.FixOptions{Baseline: baseline, MaxRounds: 1}, h.snapshot(enginetest.CalcFiles),
			scriptedReply{patch: enginetest.SwapPatch})
		p := run.GetPatches()[0]
		if p.GetFailingBefore() != 1 || p.GetFailingAfter() != 1 {
			t.Fatalf("baseline %t: failing %d → %d", baseline, p.GetFailingBefore(), p.GetFailingAfter())
		}
		if !p.GetRolledBack() || p.GetRule() != verdict.RuleRegression {
			t.Errorf("baseline %t: rolled back %t rule %q (%s)", baseline, p.GetRolledBack(), p.GetRule(), p.GetReason())
		}
		if !strings.Contains(p.GetReason(), "tests/test_calc.py::test_sub") || !strings.Contains(p.GetReason(), `step "pytest"`) {
			t.Errorf("reason %q", p.GetReason())
		}
	}
}

func TestFixProviderFailureCostsARound(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	run, _, prov := h.fix(&glv1.FixOptions{}, h.snapshot(enginetest.CalcFiles),
		scriptedReply{err: errors.New("HTTP 503 from the model server")},
		scriptedReply{patch: enginetest.FixPatch})
	if !run.GetMetrics().GetGreen() || run.GetMetrics().GetAttemptsToGreen() != 2 {
		t.Fatalf("metrics %v", run.GetMetrics())
	}
	if ps := run.GetPatches(); len(ps) != 2 || !strings.Contains(ps[0].GetReason(), "HTTP 503") {
		t.Errorf("patches %v", ps)
	}
	if !strings.Contains(prov.Requests()[1].GetFeedback(), "HTTP 503") {
		t.Errorf("feedback %q", prov.Requests()[1].GetFeedback())
	}
}

func TestFixRefusesBadOptions(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	snap := h.snapshot(enginetest.CalcFiles)
	cmd := &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_COMMAND}
	tests := []struct {
		name string
		opts *glv1.FixOptions
		want string
	}{
		{"no provider", &glv1.FixOptions{}, "provider.kind"},
		{"client without stream", &glv1.FixOptions{Provider: &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_CLIENT}}, "Fix stream"},
		{"command in the request", &glv1.FixOptions{Provider: &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_COMMAND, Command: "scripted"}}, "server configuration"},
		{"negative rounds", &glv1.FixOptions{Provider: cmd, MaxRounds: -1}, "max_rounds"},
		{"negative cost", &glv1.FixOptions{Provider: cmd, CostBudget: -1}, "cost_budget"},
		{"threshold above 10", &glv1.FixOptions{Provider: cmd, ScoreThreshold: 11}, "score_threshold"},
		{"bad glob", &glv1.FixOptions{Provider: cmd, Guardrails: &glv1.Guardrails{AllowedGlobs: []string{"src/[a"}}}, "guardrails"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := h.eng.StartFix(context.Background(), &glv1.FixStart{Snapshot: snap, Options: tt.opts}, nil)
			if !errors.Is(err, engine.ErrInvalidArgument) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want ErrInvalidArgument mentioning %q", err, tt.want)
			}
		})
	}
	page, _ := h.store.ListRuns(context.Background(), store.ListQuery{})
	if len(page.Runs) != 0 {
		t.Fatalf("%d runs stored after refusals", len(page.Runs))
	}
}

func TestFixClientProviderOverChannel(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	replies := make(chan *glv1.PatchReply, 4)
	s, err := h.eng.StartFix(context.Background(), &glv1.FixStart{Snapshot: h.snapshot(enginetest.CalcFiles),
		Options: &glv1.FixOptions{Provider: &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_CLIENT}}}, replies)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := h.hub.Subscribe(context.Background(), s.Run.GetId(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	for {
		ev, err := sub.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if req := ev.GetPatchRequested().GetRequest(); req != nil {
			replies <- &glv1.PatchReply{Attempt: 7, Patch: enginetest.NonApplyingPatch} // stale attempt: ignored
			replies <- &glv1.PatchReply{Attempt: req.GetAttempt(), Patch: enginetest.FixPatch}
			break
		}
	}
	run, _ := h.wait(s)
	if !run.GetMetrics().GetGreen() || run.GetMetrics().GetRollbacks() != 0 {
		t.Fatalf("metrics %v", run.GetMetrics())
	}
}

func TestFixSessionIsRecordedAndReplays(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	snap := h.snapshot(enginetest.CalcFiles)
	first, _, _ := h.fix(&glv1.FixOptions{}, snap,
		scriptedReply{patch: enginetest.BreakingPatch, usage: &glv1.Usage{PromptTokens: 10}},
		scriptedReply{patch: enginetest.FixPatch})
	recs, err := h.store.Recordings(context.Background(), first.GetId())
	if err != nil || len(recs) != 2 {
		t.Fatalf("recordings %d, %v", len(recs), err)
	}
	replayed, _, _ := h.fix(&glv1.FixOptions{Provider: &glv1.ProviderConfig{
		Kind: glv1.ProviderKind_PROVIDER_KIND_REPLAY, RecordingId: first.GetId()}}, snap)
	a, b := first.GetMetrics(), replayed.GetMetrics()
	if !b.GetGreen() || a.GetAttemptsToGreen() != b.GetAttemptsToGreen() || a.GetRollbacks() != b.GetRollbacks() ||
		b.GetUsage().GetPromptTokens() != 10 {
		t.Fatalf("original %v, replay %v", a, b)
	}
	if replayed.GetCurrentSnapshot().GetHash() != first.GetCurrentSnapshot().GetHash() {
		t.Errorf("replay ended on another snapshot")
	}
	if recs, _ := h.store.Recordings(context.Background(), replayed.GetId()); len(recs) != 0 {
		t.Errorf("a replay recorded %d proposals", len(recs))
	}
}

func TestFixStopsOnInfrastructureError(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	h.disc.SetError(status.Error(codes.Unavailable, "discovery is down"))
	run, _, prov := h.fix(&glv1.FixOptions{}, h.snapshot(enginetest.CalcFiles), scriptedReply{patch: enginetest.FixPatch})
	if run.GetStatus() != glv1.RunStatus_RUN_STATUS_ERROR || run.GetMetrics().GetStopReason() != engine.StopError ||
		len(prov.Requests()) != 0 || !strings.Contains(run.GetError(), "discovery is down") {
		t.Fatalf("status %s metrics %v error %q requests %d", run.GetStatus(), run.GetMetrics(), run.GetError(), len(prov.Requests()))
	}
}
