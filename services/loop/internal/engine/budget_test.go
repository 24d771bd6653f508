package engine_test

import (
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

// TestRepositoryTimeBudget: a repository's configured time budget
// (greenlight.yaml time_budget, planned as Pipeline.limits.run_timeout)
// becomes the run budget the executor gets when the request leaves the
// budget to the server, bounded by the server's cap; a request's own
// budget wins.
func TestRepositoryTimeBudget(t *testing.T) {
	h := newHarness(t, engine.Config{MaxBudgetCap: time.Hour}, enginetest.CalcSteps()...)
	runBudget := func(req *glv1.VerifyRequest) time.Duration {
		t.Helper()
		run, _ := h.verify(req)
		if run.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED {
			t.Fatalf("status %s: %s", run.GetStatus(), run.GetResult().GetSummary())
		}
		reqs := h.exec.Requests()
		return reqs[len(reqs)-1].GetLimits().GetRunTimeout().AsDuration()
	}
	snap := h.snapshot(fixed())
	h.disc.SetLimits(&glv1.Limits{Cpus: 2, RunTimeout: durationpb.New(20 * time.Minute)})
	if got := runBudget(&glv1.VerifyRequest{Snapshot: snap}); got <= engine.DefaultTimeBudget || got > 20*time.Minute {
		t.Errorf("no request budget: the executor got %s, want the repository's 20m (less what discovery took)", got)
	}
	if got := runBudget(&glv1.VerifyRequest{Snapshot: snap, Options: &glv1.VerifyOptions{TimeBudget: durationpb.New(time.Minute)}}); got > time.Minute {
		t.Errorf("request budget 1m: the executor got %s", got)
	}
	h.disc.SetLimits(&glv1.Limits{RunTimeout: durationpb.New(3 * time.Hour)})
	if got := runBudget(&glv1.VerifyRequest{Snapshot: snap}); got > time.Hour || got <= 50*time.Minute {
		t.Errorf("repository budget 3h over the 1h cap: the executor got %s", got)
	}
	h.disc.SetLimits(nil)
	if got := runBudget(&glv1.VerifyRequest{Snapshot: snap}); got > engine.DefaultTimeBudget {
		t.Errorf("nothing configured: the executor got %s, want at most the default %s", got, engine.DefaultTimeBudget)
	}
}
