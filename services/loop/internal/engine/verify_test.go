package engine_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

// fixed is CalcFiles with the bug fixed.
func fixed() map[string]string {
	files := map[string]string{}
	for k, v := range enginetest.CalcFiles {
		files[k] = v
	}
	files["calc.py"] = strings.Replace(files["calc.py"], "return a - b", "return a + b", 1)
	return files
}

func TestVerifyPassingProject(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	run, evs := h.verify(&glv1.VerifyRequest{Snapshot: h.snapshot(fixed()), SourceDir: "/src/calc"})

	if run.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED {
		t.Fatalf("status %s, result %s", run.GetStatus(), run.GetResult().GetSummary())
	}
	want := []string{"run_created", "discovery_done",
		"step_started", "log_chunk", "log_chunk", "step_finished",
		"step_started", "log_chunk", "log_chunk", "log_chunk", "step_finished",
		"tests_parsed", "score", "verification_done", "run_finished"}
	if got := kinds(evs); !slices.Equal(got, want) {
		t.Fatalf("events\n got %v\nwant %v", got, want)
	}
	res := run.GetResult()
	if res.GetStatus() != glv1.Verdict_VERDICT_PASS || res.GetCounts().GetPassed() != 2 || res.GetCounts().GetFailed() != 0 {
		t.Errorf("result %s counts %v", res.GetStatus(), res.GetCounts())
	}
	if res.GetScore().GetTotal() < 8 || res.GetStopMemo() != "" {
		t.Errorf("score %v memo %q", res.GetScore(), res.GetStopMemo())
	}
	if run.GetStartedAt() == nil || run.GetFinishedAt() == nil || run.GetSourceDir() != "/src/calc" {
		t.Errorf("run timestamps/source: %v", run)
	}
	if got := run.GetVerifyOptions(); got.GetTimeBudget().AsDuration() != engine.DefaultTimeBudget || got.GetMaxAttempts() != 3 {
		t.Errorf("effective options not stored: %v", got)
	}
	req := h.exec.Requests()[0]
	if req.GetRunId() != run.GetId() || req.GetLimits().GetRunTimeout().AsDuration() > engine.DefaultTimeBudget ||
		req.GetLimits().GetRunTimeout().AsDuration() < engine.DefaultTimeBudget-time.Minute {
		t.Errorf("execute request %v", req)
	}
	if c := evs[0].GetRunCreated().GetRun(); c.GetStatus() != glv1.RunStatus_RUN_STATUS_PENDING || c.GetId() != run.GetId() {
		t.Errorf("RunCreated carries %v", c)
	}
}

func TestVerifyFailingProjectWritesStopMemo(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	run, evs := h.verify(&glv1.VerifyRequest{Snapshot: h.snapshot(enginetest.CalcFiles),
		Options: &glv1.VerifyOptions{ChangedFiles: []string{"calc.py"}}})

	if run.GetStatus() != glv1.RunStatus_RUN_STATUS_FAILED {
		t.Fatalf("status %s", run.GetStatus())
	}
	res := run.GetResult()
	if res.GetCounts().GetFailed() != 1 || res.GetCounts().GetPassed() != 1 {
		t.Errorf("counts %v", res.GetCounts())
	}
	var found bool
	for _, f := range res.GetFailures() {
		found = found || (f.GetTest() != "" && strings.Contains(f.GetTest(), "test_add"))
	}
	if !found {
		t.Errorf("no failure for test_add: %v", res.GetFailures())
	}
	if count(evs, "verify_failed_max_retries") != 1 || count(evs, "verify_failed_retry") != 0 {
		t.Errorf("events %v", kinds(evs))
	}
	memo := res.GetStopMemo()
	t.Log(memo)
	for _, want := range []string{"python3 -m pytest -rA", "Attempts:** 1 of 3", "test_add", "calc.py", "Next steps", "assert -1 == 3"} {
		if !strings.Contains(memo, want) {
			t.Errorf("stop memo lacks %q:\n%s", want, memo)
		}
	}
	var done *glv1.VerificationDone
	for _, ev := range evs {
		if ev.GetVerificationDone() != nil {
			done = ev.GetVerificationDone()
		}
	}
	if done.GetOk() || done.GetFailedCommand() != "python3 -m pytest -rA" || done.GetAttempt() != 1 {
		t.Errorf("VerificationDone %v", done)
	}
}

func TestVerifyRunsTiersInOrderAndStopsAtFirstFailure(t *testing.T) {
	h := newHarness(t, engine.Config{},
		enginetest.Step("lint", glv1.Tier_TIER_1, glv1.Phase_PHASE_LINT, 0, 0),
		enginetest.Step("e2e", glv1.Tier_TIER_2, glv1.Phase_PHASE_TEST, 0, 0),
		enginetest.Step("build", glv1.Tier_TIER_0, glv1.Phase_PHASE_BUILD, 0, 0),
		enginetest.Step("unit", glv1.Tier_TIER_0, glv1.Phase_PHASE_TEST, 1, 0),
	)
	run, _ := h.verify(&glv1.VerifyRequest{Snapshot: h.snapshot(fixed()),
		Options: &glv1.VerifyOptions{HighRisk: true, RunEnd: true}})

	var order []string
	for _, s := range h.exec.Requests()[0].GetPipeline().GetSteps() {
		order = append(order, s.GetName())
	}
	if want := []string{"build", "unit", "lint", "e2e"}; !slices.Equal(order, want) {
		t.Fatalf("pipeline order %v, want %v", order, want)
	}
	var statuses []glv1.StepStatus
	for _, s := range run.GetResult().GetSteps() {
		statuses = append(statuses, s.GetStatus())
	}
	want := []glv1.StepStatus{glv1.StepStatus_STEP_STATUS_OK, glv1.StepStatus_STEP_STATUS_FAILED,
		glv1.StepStatus_STEP_STATUS_SKIPPED, glv1.StepStatus_STEP_STATUS_SKIPPED}
	if !slices.Equal(statuses, want) {
		t.Errorf("statuses %v", statuses)
	}
	plan := h.disc.Plans()[0]
	if !plan.GetHighRisk() || !plan.GetRunEnd() {
		t.Errorf("plan request %v", plan)
	}
}

func TestVerifyTimeBudgetSkipsRemainingTiers(t *testing.T) {
	h := newHarness(t, engine.Config{},
		enginetest.Step("build", glv1.Tier_TIER_0, glv1.Phase_PHASE_BUILD, 0, 0),
		enginetest.Step("slow", glv1.Tier_TIER_0, glv1.Phase_PHASE_TEST, 0, 30*time.Second),
		enginetest.Step("lint", glv1.Tier_TIER_1, glv1.Phase_PHASE_LINT, 0, 0),
	)
	start := time.Now()
	run, evs := h.verify(&glv1.VerifyRequest{Snapshot: h.snapshot(fixed()),
		Options: &glv1.VerifyOptions{TimeBudget: durationpb.New(time.Second), MilestoneEnd: true}})

	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("took %v with a 1 s budget", took)
	}
	// The budget cut the slow step short: its result is unknown (rule
	// time-limit), an ERROR naming the budget, not a FAIL of the code.
	if run.GetStatus() != glv1.RunStatus_RUN_STATUS_ERROR || !strings.Contains(run.GetResult().GetSummary(), "time budget ran out") {
		t.Fatalf("status %s: %s", run.GetStatus(), run.GetResult().GetSummary())
	}
	var skipped []glv1.Tier
	for _, ev := range evs {
		if s := ev.GetTierSkipped(); s != nil {
			skipped = append(skipped, s.GetTier())
			if !strings.Contains(s.GetReason(), "time budget of 1s exhausted") {
				t.Errorf("reason %q", s.GetReason())
			}
		}
	}
	if !slices.Equal(skipped, []glv1.Tier{glv1.Tier_TIER_0, glv1.Tier_TIER_1}) {
		t.Errorf("skipped tiers %v (events %v)", skipped, kinds(evs))
	}
	if s := run.GetResult().GetSummary(); !strings.Contains(s, "time budget of 1s exhausted: tier0, tier1 cut short") {
		t.Errorf("summary %q", s)
	}
	for _, st := range run.GetResult().GetSteps() {
		if st.GetName() == "slow" && (st.GetStatus() != glv1.StepStatus_STEP_STATUS_ERROR || st.GetRule() != "time-limit") {
			t.Errorf("slow step %s rule %q: %s", st.GetStatus(), st.GetRule(), st.GetReason())
		}
	}
}

func TestVerifyRefusesBadRequestsWithNothingStored(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	garbage, err := h.blobs.Put(context.Background(), strings.NewReader(strings.Repeat("not a tar at all ", 100)))
	if err != nil {
		t.Fatal(err)
	}
	unknown := blob.DigestOf([]byte("never uploaded"))
	good := h.snapshot(fixed())
	tests := []struct {
		name string
		req  *glv1.VerifyRequest
		want string
	}{
		{"no snapshot", &glv1.VerifyRequest{}, "snapshot digest is missing"},
		{"malformed digest", &glv1.VerifyRequest{Snapshot: &glv1.Digest{Hash: "xyz", SizeBytes: 3}}, "snapshot"},
		{"unknown snapshot", &glv1.VerifyRequest{Snapshot: unknown.Proto()}, "not in the blob store"},
		{"wrong size", &glv1.VerifyRequest{Snapshot: &glv1.Digest{Hash: good.GetHash(), SizeBytes: good.GetSizeBytes() + 1}}, "not in the blob store"},
		{"garbage snapshot", &glv1.VerifyRequest{Snapshot: garbage.Proto()}, "not a usable workspace tar"},
		{"negative budget", &glv1.VerifyRequest{Snapshot: good, Options: &glv1.VerifyOptions{TimeBudget: durationpb.New(-time.Second)}}, "time_budget"},
		{"too many attempts", &glv1.VerifyRequest{Snapshot: good, Options: &glv1.VerifyOptions{MaxAttempts: 1000}}, "max_attempts"},
		{"empty changed file", &glv1.VerifyRequest{Snapshot: good, Options: &glv1.VerifyOptions{ChangedFiles: []string{""}}}, "changed_files[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := h.eng.StartVerify(context.Background(), tt.req)
			if !errors.Is(err, engine.ErrInvalidArgument) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want ErrInvalidArgument mentioning %q", err, tt.want)
			}
		})
	}
	page, err := h.store.ListRuns(context.Background(), store.ListQuery{})
	if err != nil || len(page.Runs) != 0 {
		t.Fatalf("runs stored after refusals: %v, %v", page.Runs, err)
	}
	if n := len(h.exec.Requests()); n != 0 {
		t.Errorf("executor called %d times", n)
	}
}

func TestVerifyDiscoveryFailureEndsRunError(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	h.disc.SetError(status.Error(codes.InvalidArgument, "greenlight.yaml: steps[0].command is empty"))
	run, evs := h.verify(&glv1.VerifyRequest{Snapshot: h.snapshot(fixed())})
	if run.GetStatus() != glv1.RunStatus_RUN_STATUS_ERROR || run.GetResult().GetStatus() != glv1.Verdict_VERDICT_ERROR {
		t.Fatalf("status %s / %s", run.GetStatus(), run.GetResult().GetStatus())
	}
	if !strings.Contains(run.GetError(), "steps[0].command is empty") {
		t.Errorf("run error %q", run.GetError())
	}
	if count(evs, "step_started") != 0 || count(evs, "verify_failed_max_retries") != 0 {
		t.Errorf("events %v", kinds(evs))
	}
}

func TestVerifyCanceledByCaller(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.Step("slow", glv1.Tier_TIER_0, glv1.Phase_PHASE_TEST, 0, time.Minute))
	ctx, cancel := context.WithCancel(context.Background())
	s, err := h.eng.StartVerify(ctx, &glv1.VerifyRequest{Snapshot: h.snapshot(fixed())})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-h.exec.Started():
	case <-time.After(10 * time.Second):
		t.Fatal("step never started")
	}
	cancel()
	run, evs := h.wait(s)
	if run.GetStatus() != glv1.RunStatus_RUN_STATUS_CANCELED {
		t.Fatalf("status %s, events %v", run.GetStatus(), kinds(evs))
	}
}

func TestCloseCancelsRunsAndRefusesNewOnes(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.Step("slow", glv1.Tier_TIER_0, glv1.Phase_PHASE_TEST, 0, time.Minute))
	snap := h.snapshot(fixed())
	s, err := h.eng.StartVerify(context.Background(), &glv1.VerifyRequest{Snapshot: snap})
	if err != nil {
		t.Fatal(err)
	}
	<-h.exec.Started()
	h.eng.Close()
	run, _ := h.wait(s)
	if run.GetStatus() != glv1.RunStatus_RUN_STATUS_CANCELED {
		t.Fatalf("status %s", run.GetStatus())
	}
	if _, err := h.eng.StartVerify(context.Background(), &glv1.VerifyRequest{Snapshot: snap}); !errors.Is(err, engine.ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

func TestDiscoverChecksSnapshot(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	caps, err := h.eng.Discover(context.Background(), h.snapshot(fixed()))
	if err != nil || len(caps.GetCommands()) != 2 {
		t.Fatalf("Discover = %v, %v", caps, err)
	}
	if _, err := h.eng.Discover(context.Background(), blob.DigestOf([]byte("x")).Proto()); !errors.Is(err, engine.ErrInvalidArgument) {
		t.Fatalf("unknown snapshot: %v", err)
	}
}
