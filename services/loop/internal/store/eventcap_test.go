package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestEventCapDropsLogChunksKeepsTheRest fills a run past its event cap:
// log chunks are refused with ErrEventCap, every other event is still
// stored and the run finishes.
func TestEventCapDropsLogChunksKeepsTheRest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	s, err := Open(path, Options{MaxRunEventBytes: 10 << 10, MaxRunEvents: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mustCreate(t, s, "r1", glv1.RunStatus_RUN_STATUS_RUNNING, time.Now())
	chunk := strings.Repeat("y\n", 512)
	var stored, refused int
	for range 50 {
		_, err := s.AppendEvent(context.Background(), "r1", logEvent(chunk))
		switch {
		case err == nil:
			stored++
		case errors.Is(err, ErrEventCap):
			refused++
			if !strings.Contains(err.Error(), "10240 bytes") {
				t.Errorf("refusal %q does not name the cap", err)
			}
		default:
			t.Fatalf("AppendEvent: %v", err)
		}
	}
	if stored == 0 || stored > 10 || refused == 0 {
		t.Fatalf("stored %d and refused %d chunks of 1 KiB under a 10 KiB cap", stored, refused)
	}
	step := &glv1.RunEvent{Kind: &glv1.RunEvent_StepFinished{StepFinished: &glv1.StepFinished{Index: 0}}}
	mustAppend(t, s, "r1", step)
	mustFinish(t, s, "r1", glv1.RunStatus_RUN_STATUS_PASSED)
	if got := len(allEvents(t, s, "r1")); got != stored+2 {
		t.Errorf("log holds %d events, want %d chunks + StepFinished + RunFinished", got, stored)
	}
}

// TestEventCapCountsAfterReopen: the usage of an unfinished run is counted
// from its stored log, so reopening the store does not reset the cap.
func TestEventCapCountsAfterReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	opts := Options{MaxRunEvents: 3}
	s, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, s, "r1", glv1.RunStatus_RUN_STATUS_RUNNING, time.Now())
	for range 3 {
		mustAppend(t, s, "r1", logEvent("x"))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.AppendEvent(context.Background(), "r1", logEvent("x")); !errors.Is(err, ErrEventCap) {
		t.Fatalf("fourth chunk after reopen: %v, want ErrEventCap", err)
	}
}

// TestEventCapStaysReached: once a log chunk was refused, later ones are
// refused too, even one small enough to fit, so the stored output has no
// hole; other events are still stored.
func TestEventCapStaysReached(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "runs.db"), Options{MaxRunEventBytes: 10 << 10, MaxRunEvents: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mustCreate(t, s, "r1", glv1.RunStatus_RUN_STATUS_RUNNING, time.Now())
	step := &glv1.RunEvent{Kind: &glv1.RunEvent_StepFinished{StepFinished: &glv1.StepFinished{Index: 0}}}
	tests := []struct {
		name    string
		ev      *glv1.RunEvent
		wantErr error
	}{
		{"fits", logEvent(strings.Repeat("a", 9<<10)), nil},
		{"too big", logEvent(strings.Repeat("b", 2<<10)), ErrEventCap},
		{"small enough but after a refusal", logEvent("c"), ErrEventCap},
		{"not droppable", step, nil},
		{"still refused", logEvent("d"), ErrEventCap},
	}
	for _, tt := range tests {
		if _, err := s.AppendEvent(context.Background(), "r1", tt.ev); !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
			t.Errorf("%s: err = %v, want %v", tt.name, err, tt.wantErr)
		}
	}
	if got := len(allEvents(t, s, "r1")); got != 2 {
		t.Errorf("log holds %d events, want the first chunk and StepFinished", got)
	}
}
