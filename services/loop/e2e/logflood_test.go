package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// floodCap is the per-step log cap the flood test asks for.
const floodCap = 1 << 20

// floodConfig makes the whole pipeline one step that prints `yes` for 8 s:
// at the executor's live rate (2 MiB/s) that is ~16 MiB of live output.
const floodConfig = `mode: replace
steps:
  - name: flood
    phase: test
    command: timeout 8 yes || true
`

// TestVerifyLogFloodIsCapped is ADVERSARIAL row 38: a step that runs `yes`
// for its whole budget grows the run database by at most the per-step log
// cap plus a small constant, watchers are told once (LogCapped), and a
// replay of the run sends no more than that either.
func TestVerifyLogFloodIsCapped(t *testing.T) {
	s := newStack(t)
	files := fixedCalc()
	files["greenlight.yaml"] = floodConfig
	db := filepath.Join(s.dataDir, "runs.db")
	before := fileSize(t, db)

	evs := s.verify(&glv1.VerifyRequest{Snapshot: s.snapshot(files), Options: &glv1.VerifyOptions{
		Limits: &glv1.Limits{LogBytesPerStep: floodCap},
	}})
	fin := finished(evs)
	// A test step whose log was cut, with no report file, cannot pass: the
	// only ERROR expected is that one, not an infrastructure failure.
	if sum := fin.GetResult().GetSummary(); fin.GetStatus() != glv1.RunStatus_RUN_STATUS_ERROR ||
		!strings.Contains(sum, "test counts incomplete, cannot pass: flood (the test log was cut at the per-step cap") {
		t.Fatalf("run ended %s: %s", fin.GetStatus(), sum)
	}
	var logBytes int64
	var capped []*glv1.LogCapped
	for _, ev := range evs {
		if ev.GetLogChunk().GetStep() == "flood" { // not the secret scan's header
			logBytes += int64(len(ev.GetLogChunk().GetData()))
		}
		if c := ev.GetLogCapped(); c != nil {
			capped = append(capped, c)
		}
	}
	// The executor's live stream may drop chunks under its rate limit, so
	// what was stored is at most the cap, and exactly what watchers got.
	if len(capped) != 1 || capped[0].GetStep() != "flood" || capped[0].GetStoredBytes() != logBytes || logBytes == 0 {
		t.Errorf("LogCapped events %v, want one for step flood saying %d bytes were stored", capped, logBytes)
	}
	if logBytes > floodCap {
		t.Errorf("watchers got %d bytes of live log, over the %d-byte cap", logBytes, floodCap)
	}
	if out := fin.GetResult().GetSteps(); len(out) == 0 || out[len(out)-1].GetOutputBytes() < 4*floodCap {
		t.Fatalf("the step printed too little to test the cap: %v", out)
	}

	replayed := replayBytes(t, s, evs[0].GetRunId())
	const slack = 64 << 10 // event framing, non-log events
	if replayed > floodCap+slack {
		t.Errorf("a replay of the run sends %d bytes, want at most %d", replayed, floodCap+slack)
	}
	// bbolt grows its file in doubling steps below 16 MiB, so the file may
	// round up; without the cap ~16 MiB of log would land in it.
	grown := fileSize(t, db) - before
	t.Logf("run database grew by %d bytes; %d bytes of live log stored; replay %d bytes", grown, logBytes, replayed)
	if limit := int64(floodCap + 6<<20); grown > limit {
		t.Errorf("run database grew by %d bytes, over the per-step cap + 6 MiB (%d)", grown, limit)
	}
}

// replayBytes watches a finished run from the start and sums the sizes of
// the events it is sent.
func replayBytes(t *testing.T, s *stack, runID string) int64 {
	t.Helper()
	stream, err := s.runs.WatchRun(s.ctx(), &glv1.WatchRunRequest{RunId: runID})
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, ev := range drain(t, func() (*glv1.RunEvent, error) {
		r, err := stream.Recv()
		return r.GetEvent(), err
	}) {
		n += int64(proto.Size(ev))
	}
	return n
}

// fileSize is the size of path in bytes.
func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}
