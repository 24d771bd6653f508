package engine_test

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
	"github.com/greenlight-dev/greenlight/services/loop/internal/events"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

// floodJudge prints n bytes of multi-byte text in many chunks and passes.
func floodJudge(n int) enginetest.Judge {
	return func(*glv1.Step, map[string]string) enginetest.Outcome {
		return enginetest.Outcome{Log: strings.Repeat("é", n/2), Chunks: 64}
	}
}

// logStats sums the stored log bytes per step and collects LogCapped events.
func logStats(t *testing.T, evs []*glv1.RunEvent) (map[int32]int, []*glv1.LogCapped) {
	t.Helper()
	stored := map[int32]int{}
	var capped []*glv1.LogCapped
	for _, ev := range evs {
		if c := ev.GetLogChunk(); c != nil {
			if !utf8.ValidString(c.GetData()) {
				t.Errorf("stored chunk is not valid UTF-8")
			}
			stored[c.GetIndex()] += len(c.GetData())
		}
		if c := ev.GetLogCapped(); c != nil {
			capped = append(capped, c)
		}
	}
	return stored, capped
}

// TestLiveLogStoredUpToTheStepCap: past Limits.log_bytes_per_step a step's
// chunks are neither stored nor published, and one LogCapped per step says so.
func TestLiveLogStoredUpToTheStepCap(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	h.exec.SetJudge(floodJudge(64 << 10))
	const capBytes = 5001 // odd: the cut falls inside a two-byte character
	run, evs := h.verify(&glv1.VerifyRequest{Snapshot: h.snapshot(fixed()),
		Options: &glv1.VerifyOptions{Limits: &glv1.Limits{LogBytesPerStep: capBytes}}})
	if run.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED {
		t.Fatalf("status %s: %s", run.GetStatus(), run.GetResult().GetSummary())
	}
	stored, capped := logStats(t, evs)
	if len(capped) != 2 || capped[0].GetStep() != "compileall" || capped[1].GetStep() != "pytest" {
		t.Fatalf("LogCapped events %v, want one per step", capped)
	}
	for i, n := range stored {
		if n > capBytes || n < capBytes-1 {
			t.Errorf("step %d stored %d bytes of live log, want the cap %d (less a split character)", i, n, capBytes)
		}
		if capped[i].GetStoredBytes() != int64(n) {
			t.Errorf("LogCapped for step %d says %d bytes, %d stored", i, capped[i].GetStoredBytes(), n)
		}
	}
}

// TestRunEventCapDropsLogsButRunFinishes: when the store's per-run cap is
// reached, further log chunks are dropped (LogCapped tells watchers) while
// StepFinished and RunFinished are still stored and the run finishes.
func TestRunEventCapDropsLogsButRunFinishes(t *testing.T) {
	h := newHarnessWithStore(t, store.Options{NoSync: true, MaxRunEventBytes: 20 << 10}, enginetest.CalcSteps()...)
	h.exec.SetJudge(floodJudge(64 << 10))
	run, evs := h.verify(&glv1.VerifyRequest{Snapshot: h.snapshot(fixed())})
	if run.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED {
		t.Fatalf("status %s: %s", run.GetStatus(), run.GetResult().GetSummary())
	}
	stored, capped := logStats(t, evs)
	if total := stored[0] + stored[1]; total > 20<<10 {
		t.Errorf("%d bytes of log stored past a 20 KiB run cap", total)
	}
	if len(capped) != 2 || count(evs, "step_finished") != 2 {
		t.Errorf("LogCapped %v, %d StepFinished; want both steps capped and finished", capped, count(evs, "step_finished"))
	}
}

// newHarnessWithStore is newHarness with the run store opened with opts.
func newHarnessWithStore(t *testing.T, opts store.Options, steps ...*glv1.Step) *harness {
	t.Helper()
	dir := t.TempDir()
	blobs, err := blob.NewStore(filepath.Join(dir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "runs.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, store: st, hub: events.NewHub(st, events.Options{}), blobs: blobs,
		disc: enginetest.NewDiscovery(steps...), exec: enginetest.NewExecutor(blobs, enginetest.CalcJudge)}
	dconn := enginetest.Serve(t, func(s *grpc.Server) { glv1.RegisterDiscoveryServiceServer(s, h.disc) })
	econn := enginetest.Serve(t, func(s *grpc.Server) { glv1.RegisterExecutorServiceServer(s, h.exec) })
	h.eng, err = engine.New(engine.Deps{
		Store: st, Hub: h.hub, Blobs: blobs, Discovery: glv1.NewDiscoveryServiceClient(dconn),
		Executor: glv1.NewExecutorServiceClient(econn),
	}, engine.Config{}, zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		h.eng.Close()
		_ = st.Close()
	})
	return h
}

// TestLiveLogOrderAndLogCappedBytes: log chunks are stored without waiting
// for each commit, yet each step's events stay in order — its chunks, then
// its LogCapped saying exactly how many bytes of them are stored, then its
// StepFinished — whichever cap ends the step's live log.
func TestLiveLogOrderAndLogCappedBytes(t *testing.T) {
	tests := []struct {
		name   string
		opts   store.Options
		limits *glv1.Limits
	}{
		{"step cap", store.Options{NoSync: true}, &glv1.Limits{LogBytesPerStep: 5001}},
		{"run event cap", store.Options{NoSync: true, MaxRunEventBytes: 20 << 10}, nil},
		{"run event cap with fsync", store.Options{MaxRunEventBytes: 20 << 10}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarnessWithStore(t, tt.opts, enginetest.CalcSteps()...)
			h.exec.SetJudge(floodJudge(64 << 10))
			run, evs := h.verify(&glv1.VerifyRequest{Snapshot: h.snapshot(fixed()), Options: &glv1.VerifyOptions{Limits: tt.limits}})
			if run.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED {
				t.Fatalf("status %s: %s", run.GetStatus(), run.GetResult().GetSummary())
			}
			stored := map[int32]int64{}
			capped := map[int32]bool{}
			finished := map[int32]bool{}
			for _, ev := range evs {
				switch {
				case ev.GetLogChunk() != nil:
					i := ev.GetLogChunk().GetIndex()
					if capped[i] || finished[i] {
						t.Fatalf("seq %d: a chunk of step %d after its LogCapped or StepFinished", ev.GetSeq(), i)
					}
					stored[i] += int64(len(ev.GetLogChunk().GetData()))
				case ev.GetLogCapped() != nil:
					c := ev.GetLogCapped()
					if capped[c.GetIndex()] || finished[c.GetIndex()] || c.GetStoredBytes() != stored[c.GetIndex()] {
						t.Fatalf("seq %d: LogCapped %v (step stored %d bytes, capped before %v, finished %v)",
							ev.GetSeq(), c, stored[c.GetIndex()], capped[c.GetIndex()], finished[c.GetIndex()])
					}
					capped[c.GetIndex()] = true
				case ev.GetStepFinished() != nil:
					finished[ev.GetStepFinished().GetIndex()] = true
				}
			}
			if len(capped) != 2 || len(finished) != 2 {
				t.Errorf("%d steps capped, %d finished; want both of each", len(capped), len(finished))
			}
		})
	}
}
