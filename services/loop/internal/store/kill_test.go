package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestKilledProcessLeavesInterruptedRun SIGKILLs a child process in the
// middle of appending events and checks that the next start marks the run
// INTERRUPTED with every event the child saw stored still there, in order.
func TestKilledProcessLeavesInterruptedRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	cmd, out, _ := startChild(t, "append", path)
	const killAfter = 200
	reported := 0
	killed := false
	for out.Scan() {
		if _, err := fmt.Sscanf(out.Text(), "appended %d", &reported); err != nil {
			t.Fatalf("child said %q: %v", out.Text(), err)
		}
		if reported >= killAfter && !killed {
			if err := cmd.Process.Kill(); err != nil {
				t.Fatalf("kill: %v", err)
			}
			killed = true // keep reading what the child printed before dying
		}
	}
	if !killed {
		t.Fatalf("child stopped after %d events without being killed", reported)
	}
	waitKilled(t, cmd)

	s, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("Open after kill: %v", err)
	}
	defer s.Close()
	ctx := context.Background()
	ids, err := s.RecoverInterrupted(ctx, fixedNow)
	if err != nil || len(ids) != 1 || ids[0] != killRunID {
		t.Fatalf("RecoverInterrupted = %v, %v; want [%s]", ids, err, killRunID)
	}
	run, err := s.GetRun(ctx, killRunID)
	if err != nil {
		t.Fatalf("GetRun: %v", err)
	}
	if run.GetStatus() != interrupted || !run.GetFinishedAt().AsTime().Equal(fixedNow) || run.GetError() != InterruptedMessage {
		t.Errorf("recovered run: status %s finished_at %v error %q", run.GetStatus(), run.GetFinishedAt().AsTime(), run.GetError())
	}
	if len(run.GetPatches()) != 1 {
		t.Errorf("patch outcome lost: %v", run.GetPatches())
	}

	events := allEvents(t, s, killRunID)
	n := len(events) - 1 // log chunks before the RunFinished
	// The child may have stored one more event than it lived to report.
	if n < reported || n > reported+1 {
		t.Fatalf("%d events survived, child reported %d appended", n, reported)
	}
	for i, ev := range events[:n] {
		if ev.GetSeq() != uint64(i+1) || ev.GetLogChunk().GetData() != fmt.Sprintf("line %d", i+1) {
			t.Fatalf("event %d = seq %d %q, want seq %d \"line %d\"", i, ev.GetSeq(), ev.GetLogChunk().GetData(), i+1, i+1)
		}
	}
	last := events[n]
	if last.GetRunFinished().GetStatus() != interrupted || last.GetSeq() != uint64(n+1) || run.GetLastSeq() != uint64(n+1) {
		t.Errorf("last event = %v (run last_seq %d), want RunFinished{INTERRUPTED} at seq %d", last, run.GetLastSeq(), n+1)
	}
	if ids, err := s.RecoverInterrupted(ctx, fixedNow); err != nil || len(ids) != 0 {
		t.Errorf("second RecoverInterrupted = %v, %v; want nothing to do", ids, err)
	}
	t.Logf("child reported %d events, %d stored before the kill", reported, n)
}

func TestRecoverInterruptedOnlyTouchesUnfinishedRuns(t *testing.T) {
	s, clock := newTestStore(t)
	ctx := context.Background()
	mustCreate(t, s, "pending", pending, clock.t)
	mustCreate(t, s, "running", running, clock.t.Add(1))
	mustAppend(t, s, "running", logEvent("x"))
	mustCreate(t, s, "done", running, clock.t.Add(2))
	mustFinish(t, s, "done", failed)
	if _, err := s.UpdateRun(ctx, "running", func(r *glv1.Run) error { r.Error = "executor unreachable"; return nil }); err != nil {
		t.Fatal(err)
	}
	ids, err := s.RecoverInterrupted(ctx, fixedNow)
	if err != nil || fmt.Sprint(ids) != "[pending running]" {
		t.Fatalf("RecoverInterrupted = %v, %v; want [pending running]", ids, err)
	}
	tests := []struct {
		id         string
		wantStatus glv1.RunStatus
		wantSeq    uint64
		wantError  string
	}{
		{"pending", interrupted, 1, InterruptedMessage},
		{"running", interrupted, 2, "executor unreachable"},
		{"done", failed, 1, ""},
	}
	for _, tt := range tests {
		run, err := s.GetRun(ctx, tt.id)
		if err != nil {
			t.Fatal(err)
		}
		if run.GetStatus() != tt.wantStatus || run.GetLastSeq() != tt.wantSeq || run.GetError() != tt.wantError {
			t.Errorf("%s: status %s last_seq %d error %q; want %s %d %q",
				tt.id, run.GetStatus(), run.GetLastSeq(), run.GetError(), tt.wantStatus, tt.wantSeq, tt.wantError)
		}
	}
}
