package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"google.golang.org/protobuf/types/known/timestamppb"
)

func TestAppendEventAssignsSeqTimeAndRun(t *testing.T) {
	s, clock := newTestStore(t)
	mustCreate(t, s, "r1", running, clock.t)
	ev := logEvent("a")
	if seq := mustAppend(t, s, "r1", ev); seq != 1 {
		t.Errorf("first seq = %d, want 1", seq)
	}
	if ev.GetSeq() != 1 || ev.GetRunId() != "r1" || !ev.GetTime().AsTime().Equal(clock.t) {
		t.Errorf("event not stamped: %v", ev)
	}
	own := logEvent("b")
	own.Time = timestamppb.New(clock.t.Add(time.Hour))
	mustAppend(t, s, "r1", own)
	got := allEvents(t, s, "r1")
	if len(got) != 2 || !got[1].GetTime().AsTime().Equal(clock.t.Add(time.Hour)) || got[1].GetLogChunk().GetData() != "b" {
		t.Errorf("stored events = %v, want a then b with the caller's time", got)
	}
	run, err := s.GetRun(context.Background(), "r1")
	if err != nil || run.GetLastSeq() != 2 {
		t.Errorf("GetRun last_seq = %d (%v), want 2", run.GetLastSeq(), err)
	}
}

func TestAppendEventRejects(t *testing.T) {
	s, clock := newTestStore(t)
	mustCreate(t, s, "r1", running, clock.t)
	mustCreate(t, s, "done", running, clock.t)
	mustFinish(t, s, "done", passed)
	tests := []struct {
		name    string
		run     string
		ev      *glv1.RunEvent
		wantErr error
	}{
		{"nil event", "r1", nil, ErrInvalidArgument},
		{"no kind", "r1", &glv1.RunEvent{}, ErrInvalidArgument},
		{"seq preset", "r1", &glv1.RunEvent{Seq: 4, Kind: logEvent("x").Kind}, ErrInvalidArgument},
		{"other run", "r1", &glv1.RunEvent{RunId: "r2", Kind: logEvent("x").Kind}, ErrInvalidArgument},
		{"resume from", "r1", &glv1.RunEvent{Kind: &glv1.RunEvent_ResumeFrom{ResumeFrom: &glv1.ResumeFrom{}}}, ErrInvalidArgument},
		{"finish as running", "r1", &glv1.RunEvent{Kind: &glv1.RunEvent_RunFinished{RunFinished: &glv1.RunFinished{Status: running}}}, ErrInvalidArgument},
		{"unknown run", "r_nope", logEvent("x"), ErrNotFound},
		{"finished run", "done", logEvent("x"), ErrFinished},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := s.AppendEvent(context.Background(), tt.run, tt.ev); !errors.Is(err, tt.wantErr) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
		})
	}
	if got := allEvents(t, s, "r1"); len(got) != 0 {
		t.Errorf("rejected appends stored %d events", len(got))
	}
}

func TestFinishClosesRun(t *testing.T) {
	s, clock := newTestStore(t)
	ctx := context.Background()
	mustCreate(t, s, "r1", running, clock.t)
	mustAppend(t, s, "r1", logEvent("x"))
	clock.t = clock.t.Add(time.Minute)
	result := &glv1.Result{Summary: "all green", Steps: []*glv1.StepResult{{Name: "test", LogDigest: digest('c', 10)}}}
	ev, err := s.Finish(ctx, "r1", &glv1.RunFinished{Status: passed, Result: result, Metrics: &glv1.FixMetrics{Green: true}})
	if err != nil {
		t.Fatalf("Finish: %v", err)
	}
	if ev.GetSeq() != 2 {
		t.Errorf("RunFinished seq = %d, want 2", ev.GetSeq())
	}
	run, err := s.GetRun(ctx, "r1")
	if err != nil {
		t.Fatalf("GetRun: %v", err)
	}
	if run.GetStatus() != passed || !run.GetFinishedAt().AsTime().Equal(clock.t) ||
		run.GetResult().GetSummary() != "all green" || !run.GetMetrics().GetGreen() || run.GetLastSeq() != 2 {
		t.Errorf("finished run = %v", run)
	}
	if _, err := s.Finish(ctx, "r1", &glv1.RunFinished{Status: failed}); !errors.Is(err, ErrFinished) {
		t.Errorf("second Finish: err = %v, want ErrFinished", err)
	}
	// Updating other fields of a finished run stays allowed (e.g. a report).
	if _, err := s.UpdateRun(ctx, "r1", func(r *glv1.Run) error { r.Error = "note"; return nil }); err != nil {
		t.Errorf("UpdateRun on finished run: %v", err)
	}
}

func TestConcurrentAppendsGetUniqueConsecutiveSeqs(t *testing.T) {
	s, clock := newTestStore(t)
	const writers, perWriter = 8, 50
	runs := []string{"r1", "r2"}
	for _, id := range runs {
		mustCreate(t, s, id, running, clock.t)
	}
	var wg sync.WaitGroup
	seqs := make([][]uint64, writers)
	for w := range writers {
		wg.Go(func() {
			run := runs[w%len(runs)]
			for i := range perWriter {
				seq, err := s.AppendEvent(context.Background(), run, logEvent(fmt.Sprintf("w%d-%d", w, i)))
				if err != nil {
					t.Errorf("AppendEvent: %v", err)
					return
				}
				seqs[w] = append(seqs[w], seq)
			}
		})
	}
	// Appends to an unknown run in the same groups must fail alone.
	wg.Go(func() {
		for range perWriter {
			if _, err := s.AppendEvent(context.Background(), "r_nope", logEvent("x")); !errors.Is(err, ErrNotFound) {
				t.Errorf("append to unknown run: err = %v, want ErrNotFound", err)
				return
			}
		}
	})
	wg.Wait()
	st := s.WriterStats()
	if st.Appends != writers*perWriter+perWriter || st.Commits == 0 || st.Commits > st.Appends {
		t.Errorf("WriterStats = %+v, want %d appends in at most as many commits", st, writers*perWriter+perWriter)
	}
	for r, id := range runs {
		var got []uint64
		for w := r; w < writers; w += len(runs) {
			if !sort.SliceIsSorted(seqs[w], func(i, j int) bool { return seqs[w][i] < seqs[w][j] }) {
				t.Errorf("writer %d saw seqs out of order: %v", w, seqs[w])
			}
			got = append(got, seqs[w]...)
		}
		sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
		want := writers / len(runs) * perWriter
		if len(got) != want {
			t.Fatalf("run %s: %d seqs, want %d", id, len(got), want)
		}
		for i, seq := range got {
			if seq != uint64(i+1) {
				t.Fatalf("run %s: seqs not unique and consecutive: position %d has %d", id, i, seq)
			}
		}
		events := allEvents(t, s, id)
		if len(events) != want || events[len(events)-1].GetSeq() != uint64(want) {
			t.Errorf("run %s: stored %d events, want %d", id, len(events), want)
		}
	}
}

func TestEventsAfterSeq(t *testing.T) {
	s, clock := newTestStore(t)
	mustCreate(t, s, "r1", running, clock.t)
	mustCreate(t, s, "empty", running, clock.t)
	for i := range 10 {
		mustAppend(t, s, "r1", logEvent(fmt.Sprint(i+1)))
	}
	tests := []struct {
		name     string
		run      string
		after    uint64
		limit    int
		wantSeqs []uint64
		wantErr  error
	}{
		{"all", "r1", 0, 0, []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, nil},
		{"after 7", "r1", 7, 0, []uint64{8, 9, 10}, nil},
		{"limit", "r1", 2, 3, []uint64{3, 4, 5}, nil},
		{"at end", "r1", 10, 0, nil, nil},
		{"beyond end", "r1", 99, 0, nil, nil},
		{"largest seq", "r1", math.MaxUint64, 0, nil, nil},
		{"empty log", "empty", 0, 0, nil, nil},
		{"negative limit", "r1", 0, -1, nil, ErrInvalidArgument},
		{"unknown run", "r_nope", 0, 0, nil, ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Events(context.Background(), tt.run, tt.after, tt.limit)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			var seqs []uint64
			for _, ev := range got {
				seqs = append(seqs, ev.GetSeq())
				if ev.GetLogChunk().GetData() != fmt.Sprint(ev.GetSeq()) {
					t.Errorf("event %d carries %q", ev.GetSeq(), ev.GetLogChunk().GetData())
				}
			}
			if fmt.Sprint(seqs) != fmt.Sprint(tt.wantSeqs) {
				t.Errorf("seqs = %v, want %v", seqs, tt.wantSeqs)
			}
		})
	}
}
