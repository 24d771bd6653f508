package store

import (
	"context"
	"errors"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func TestPutPatchUpsertsByAttempt(t *testing.T) {
	s, clock := newTestStore(t)
	ctx := context.Background()
	mustCreate(t, s, "r1", running, clock.t)
	puts := []*glv1.PatchOutcome{
		{Attempt: 2, Diff: "second", Applied: true},
		{Attempt: 1, Diff: "first", Applied: true},
		{Attempt: 2, Diff: "second", Applied: true, RolledBack: true, Reason: "more checks failed"},
	}
	for _, p := range puts {
		if err := s.PutPatch(ctx, "r1", p); err != nil {
			t.Fatalf("PutPatch(%d): %v", p.GetAttempt(), err)
		}
	}
	run, err := s.GetRun(ctx, "r1")
	if err != nil {
		t.Fatalf("GetRun: %v", err)
	}
	got := run.GetPatches()
	if len(got) != 2 || got[0].GetAttempt() != 1 || got[1].GetAttempt() != 2 || !got[1].GetRolledBack() {
		t.Errorf("patches = %v, want attempt 1 then attempt 2 rolled back", got)
	}
	page, err := s.ListRuns(ctx, ListQuery{})
	if err != nil || len(page.Runs) != 1 || len(page.Runs[0].GetPatches()) != 0 {
		t.Errorf("ListRuns should omit patches: %v, %v", page.Runs, err)
	}
	for name, call := range map[string]func() error{
		"unknown run": func() error { return s.PutPatch(ctx, "r_nope", &glv1.PatchOutcome{}) },
		"nil outcome": func() error { return s.PutPatch(ctx, "r1", nil) },
	} {
		if err := call(); !errors.Is(err, ErrNotFound) && !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s: err = %v, want ErrNotFound/ErrInvalidArgument", name, err)
		}
	}
}

func TestRecordings(t *testing.T) {
	s, clock := newTestStore(t)
	ctx := context.Background()
	mustCreate(t, s, "r1", running, clock.t)
	mustCreate(t, s, "bare", running, clock.t)
	data := []byte(`{"request":"fix it","reply":"--- a/x\n+++ b/x"}`)
	for _, seq := range []uint64{3, 1, 2} {
		if err := s.PutRecording(ctx, "r1", seq, append([]byte{byte('0' + seq)}, data...)); err != nil {
			t.Fatalf("PutRecording(%d): %v", seq, err)
		}
	}
	got, err := s.Recordings(ctx, "r1")
	if err != nil {
		t.Fatalf("Recordings: %v", err)
	}
	if len(got) != 3 {
		t.Fatalf("got %d recordings, want 3", len(got))
	}
	for i, r := range got {
		if r.Seq != uint64(i+1) || r.Data[0] != byte('1'+i) || string(r.Data[1:]) != string(data) {
			t.Errorf("recording %d = {%d %q}", i, r.Seq, r.Data)
		}
	}
	if got, err := s.Recordings(ctx, "bare"); err != nil || len(got) != 0 {
		t.Errorf("run without recordings: %v, %v; want none", got, err)
	}
	if _, err := s.Recordings(ctx, "r_nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Recordings(unknown): err = %v, want ErrNotFound", err)
	}
	if err := s.PutRecording(ctx, "r_nope", 1, data); !errors.Is(err, ErrNotFound) {
		t.Errorf("PutRecording(unknown): err = %v, want ErrNotFound", err)
	}
}
