package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// testClock is a settable clock for deterministic times.
type testClock struct{ t time.Time }

func (c *testClock) now() time.Time { return c.t }

// newTestStore opens a fresh store in a temporary directory (fsync on, as in
// production) and closes it when the test ends.
func newTestStore(t testing.TB) (*Store, *testClock) {
	t.Helper()
	clock := &testClock{t: time.Date(2026, 11, 22, 4, 20, 0, 0, time.UTC)}
	s, err := Open(filepath.Join(t.TempDir(), "runs.db"), Options{Now: clock.now})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s, clock
}

// mustCreate creates a run with the given id, status and creation time.
func mustCreate(t testing.TB, s *Store, id string, status glv1.RunStatus, created time.Time) *glv1.Run {
	t.Helper()
	run := &glv1.Run{Id: id, Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: status, CreatedAt: timestamppb.New(created)}
	if err := s.CreateRun(context.Background(), run); err != nil {
		t.Fatalf("CreateRun(%s): %v", id, err)
	}
	return run
}

// logEvent builds a log-chunk event with the given text.
func logEvent(text string) *glv1.RunEvent {
	return &glv1.RunEvent{Kind: &glv1.RunEvent_LogChunk{LogChunk: &glv1.LogChunk{Step: "test", Data: text}}}
}

// mustAppend appends an event and returns its seq.
func mustAppend(t testing.TB, s *Store, runID string, ev *glv1.RunEvent) uint64 {
	t.Helper()
	seq, err := s.AppendEvent(context.Background(), runID, ev)
	if err != nil {
		t.Fatalf("AppendEvent(%s): %v", runID, err)
	}
	return seq
}

// mustFinish finishes a run with status.
func mustFinish(t testing.TB, s *Store, runID string, status glv1.RunStatus) *glv1.RunEvent {
	t.Helper()
	ev, err := s.Finish(context.Background(), runID, &glv1.RunFinished{Status: status})
	if err != nil {
		t.Fatalf("Finish(%s): %v", runID, err)
	}
	return ev
}

// allEvents reads a run's whole log in small pages.
func allEvents(t testing.TB, s *Store, runID string) []*glv1.RunEvent {
	t.Helper()
	var out []*glv1.RunEvent
	var after uint64
	for {
		page, err := s.Events(context.Background(), runID, after, 7)
		if err != nil {
			t.Fatalf("Events(%s, %d): %v", runID, after, err)
		}
		if len(page) == 0 {
			return out
		}
		out = append(out, page...)
		after = page[len(page)-1].GetSeq()
	}
}

// digest builds a digest whose hash is the character c repeated.
func digest(c byte, size int64) *glv1.Digest {
	h := make([]byte, hashLen)
	for i := range h {
		h[i] = c
	}
	return &glv1.Digest{Hash: string(h), SizeBytes: size}
}
