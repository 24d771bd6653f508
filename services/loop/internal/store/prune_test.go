package store

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// seedRetention creates, relative to now (digests named by their letter):
//
//	old10d  finished; snapshot a (shared with new1d), result log b, a
//	        StepFinished event with log f, a patch with snapshot c, one
//	        recording; 3 events
//	old9d   still RUNNING (never pruned); an event with snapshot e
//	old8d   finished; snapshot e, a patch with snapshot d; 1 event
//	new1d   finished; snapshot a, a recording quoting digest d
//	new1h   finished
func seedRetention(t *testing.T, s *Store, now time.Time) {
	t.Helper()
	ctx := context.Background()
	day := 24 * time.Hour
	create := func(id string, age time.Duration, snap *glv1.Digest) {
		t.Helper()
		run := &glv1.Run{Id: id, Status: running, Snapshot: snap, CreatedAt: timestamppb.New(now.Add(-age))}
		if err := s.CreateRun(ctx, run); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	create("old10d", 10*day, digest('a', 1))
	mustAppend(t, s, "old10d", &glv1.RunEvent{Kind: &glv1.RunEvent_StepFinished{StepFinished: &glv1.StepFinished{
		Result: &glv1.StepResult{Name: "attempt 1", LogDigest: digest('f', 6)}}}})
	mustAppend(t, s, "old10d", logEvent("no digests here"))
	must(s.PutPatch(ctx, "old10d", &glv1.PatchOutcome{Attempt: 1, SnapshotAfter: digest('c', 3)}))
	must(s.PutRecording(ctx, "old10d", 1, []byte("exchange")))
	_, err := s.Finish(ctx, "old10d", &glv1.RunFinished{Status: passed, Result: &glv1.Result{
		Steps: []*glv1.StepResult{{Name: "test", LogDigest: digest('b', 2)}}}})
	must(err)

	create("old9d", 9*day, nil)
	mustAppend(t, s, "old9d", &glv1.RunEvent{Kind: &glv1.RunEvent_RoundStarted{RoundStarted: &glv1.RoundStarted{Snapshot: digest('e', 5)}}})

	create("old8d", 8*day, digest('e', 5))
	must(s.PutPatch(ctx, "old8d", &glv1.PatchOutcome{Attempt: 1, SnapshotAfter: digest('d', 4)}))
	mustFinish(t, s, "old8d", failed)

	create("new1d", day, digest('a', 1))
	must(s.PutRecording(ctx, "new1d", 1, []byte(`{"snapshot":{"hash":"`+digest('d', 4).GetHash()+`"}}`)))
	mustFinish(t, s, "new1d", passed)

	create("new1h", time.Hour, nil)
	mustFinish(t, s, "new1h", passed)
}

func TestPrune(t *testing.T) {
	day := 24 * time.Hour
	tests := []struct {
		name        string
		retention   Retention
		wantRuns    []string
		wantCounts  [3]int // events, patches, recordings
		wantDigests string // letters of the returned digests
		wantKept    []string
	}{
		{
			name:        "by age",
			retention:   Retention{MaxAge: 7 * day},
			wantRuns:    []string{"old8d", "old10d"},
			wantCounts:  [3]int{3 + 1, 1 + 1, 1},
			wantDigests: "bcf", // a: new1d's snapshot, d: new1d's recording, e: old9d's event
			wantKept:    []string{"new1h", "new1d", "old9d"},
		},
		{
			name:        "by count keeps the newest two of any status",
			retention:   Retention{KeepRuns: 2},
			wantRuns:    []string{"old8d", "old10d"},
			wantCounts:  [3]int{4, 2, 1},
			wantDigests: "bcf",
			wantKept:    []string{"new1h", "new1d", "old9d"},
		},
		{
			name:        "count counts the running run too",
			retention:   Retention{KeepRuns: 4},
			wantRuns:    []string{"old10d"},
			wantCounts:  [3]int{3, 1, 1},
			wantDigests: "bcf",
			wantKept:    []string{"new1h", "new1d", "old8d", "old9d"},
		},
		{
			name:        "either limit deletes",
			retention:   Retention{KeepRuns: 4, MaxAge: 2 * day},
			wantRuns:    []string{"old8d", "old10d"},
			wantCounts:  [3]int{4, 2, 1},
			wantDigests: "bcf",
			wantKept:    []string{"new1h", "new1d", "old9d"},
		},
		{
			name:      "everything but the running run",
			retention: Retention{MaxAge: time.Minute},
			wantRuns:  []string{"new1h", "new1d", "old8d", "old10d"},
			// a is no longer used; d only by a deleted run and its
			// deleted recording; e still by old9d's event.
			wantCounts:  [3]int{4 + 1 + 1, 2, 2},
			wantDigests: "abcdf",
			wantKept:    []string{"old9d"},
		},
		{
			name:      "no limits",
			retention: Retention{},
			wantKept:  []string{"new1h", "new1d", "old8d", "old9d", "old10d"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, clock := newTestStore(t)
			seedRetention(t, s, clock.t)
			rep, err := s.Prune(context.Background(), tt.retention)
			if err != nil {
				t.Fatalf("Prune: %v", err)
			}
			if !slices.Equal(rep.Runs, tt.wantRuns) {
				t.Errorf("deleted runs = %v, want %v", rep.Runs, tt.wantRuns)
			}
			if got := [3]int{rep.Events, rep.Patches, rep.Recordings}; got != tt.wantCounts {
				t.Errorf("deleted events/patches/recordings = %v, want %v", got, tt.wantCounts)
			}
			if got := digestLetters(rep.Digests); got != tt.wantDigests {
				t.Errorf("unreferenced digests = %q, want %q", got, tt.wantDigests)
			}
			kept, _ := listAll(t, s, ListQuery{})
			if !slices.Equal(kept, tt.wantKept) {
				t.Errorf("kept runs = %v, want %v", kept, tt.wantKept)
			}
			for _, id := range rep.Runs {
				if _, err := s.Events(context.Background(), id, 0, 0); !errors.Is(err, ErrNotFound) {
					t.Errorf("events of deleted run %s: err = %v, want ErrNotFound", id, err)
				}
				if _, err := s.Recordings(context.Background(), id); !errors.Is(err, ErrNotFound) {
					t.Errorf("recordings of deleted run %s: err = %v, want ErrNotFound", id, err)
				}
			}
		})
	}
}

func TestPruneRejectsNegative(t *testing.T) {
	s, _ := newTestStore(t)
	for _, r := range []Retention{{MaxAge: -time.Hour}, {KeepRuns: -1}} {
		if _, err := s.Prune(context.Background(), r); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("Prune(%+v): err = %v, want ErrInvalidArgument", r, err)
		}
	}
}

// digestLetters names digests built by digest() by their letter.
func digestLetters(ds []*glv1.Digest) string {
	var b []byte
	for _, d := range ds {
		b = append(b, d.GetHash()[0])
	}
	return string(b)
}
