package store

import (
	"context"
	"errors"
	"regexp"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

func TestCreateRunDefaultsAndRoundTrip(t *testing.T) {
	s, clock := newTestStore(t)
	ctx := context.Background()
	run := &glv1.Run{
		Kind:          glv1.RunKind_RUN_KIND_FIX,
		Snapshot:      digest('a', 42),
		VerifyOptions: &glv1.VerifyOptions{ChangedFiles: []string{"main.go"}, Labels: map[string]string{"team": "x"}},
		SourceDir:     "/src",
	}
	if err := s.CreateRun(ctx, run); err != nil {
		t.Fatalf("CreateRun: %v", err)
	}
	if ok, _ := regexp.MatchString(`^r_20261122T042000_[a-z2-7]{8}$`, run.GetId()); !ok {
		t.Errorf("generated id %q does not look like r_<utc second>_<8 base32>", run.GetId())
	}
	if run.GetStatus() != glv1.RunStatus_RUN_STATUS_PENDING {
		t.Errorf("status defaulted to %s, want PENDING", run.GetStatus())
	}
	if !run.GetCreatedAt().AsTime().Equal(clock.t) {
		t.Errorf("created_at defaulted to %v, want the store clock %v", run.GetCreatedAt().AsTime(), clock.t)
	}
	got, err := s.GetRun(ctx, run.GetId())
	if err != nil {
		t.Fatalf("GetRun: %v", err)
	}
	if !proto.Equal(got, run) {
		t.Errorf("GetRun = %v, want %v", got, run)
	}
	if err := s.CreateRun(ctx, &glv1.Run{Id: run.GetId()}); !errors.Is(err, ErrAlreadyExists) {
		t.Errorf("second CreateRun with same id: err = %v, want ErrAlreadyExists", err)
	}
}

func TestCreateRunRejects(t *testing.T) {
	s, _ := newTestStore(t)
	long := make([]byte, maxRunIDLen+1)
	for i := range long {
		long[i] = 'x'
	}
	tests := []struct {
		name string
		run  *glv1.Run
	}{
		{"nil", nil},
		{"finished status", &glv1.Run{Status: glv1.RunStatus_RUN_STATUS_PASSED}},
		{"finished_at set", &glv1.Run{FinishedAt: timestamppb.Now()}},
		{"last_seq set", &glv1.Run{LastSeq: 3}},
		{"patches set", &glv1.Run{Patches: []*glv1.PatchOutcome{{Attempt: 1}}}},
		{"id too long", &glv1.Run{Id: string(long)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.CreateRun(context.Background(), tt.run); !errors.Is(err, ErrInvalidArgument) {
				t.Errorf("err = %v, want ErrInvalidArgument", err)
			}
		})
	}
}

func TestGetRunUnknown(t *testing.T) {
	s, _ := newTestStore(t)
	if _, err := s.GetRun(context.Background(), "r_nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("err = %v, want ErrNotFound", err)
	}
	if _, err := s.UpdateRun(context.Background(), "r_nope", func(*glv1.Run) error { return nil }); !errors.Is(err, ErrNotFound) {
		t.Errorf("UpdateRun err = %v, want ErrNotFound", err)
	}
}

func TestUpdateRun(t *testing.T) {
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	errBoom := errors.New("boom")
	tests := []struct {
		name    string
		fn      func(*glv1.Run) error
		wantErr error
		check   func(t *testing.T, r *glv1.Run)
	}{
		{
			name: "start running and record snapshot",
			fn: func(r *glv1.Run) error {
				r.Status = glv1.RunStatus_RUN_STATUS_RUNNING
				r.StartedAt = timestamppb.New(created.Add(time.Second))
				r.CurrentSnapshot = digest('b', 7)
				return nil
			},
			check: func(t *testing.T, r *glv1.Run) {
				if r.GetStatus() != glv1.RunStatus_RUN_STATUS_RUNNING || r.GetCurrentSnapshot().GetSizeBytes() != 7 {
					t.Errorf("update not stored: %v", r)
				}
			},
		},
		{name: "fn error aborts", fn: func(r *glv1.Run) error { r.Error = "x"; return errBoom }, wantErr: errBoom,
			check: func(t *testing.T, r *glv1.Run) {
				if r.GetError() != "" {
					t.Errorf("aborted update was stored: error=%q", r.GetError())
				}
			}},
		{name: "id", fn: func(r *glv1.Run) error { r.Id = "other"; return nil }, wantErr: ErrInvalidArgument},
		{name: "created_at", fn: func(r *glv1.Run) error { r.CreatedAt = timestamppb.Now(); return nil }, wantErr: ErrInvalidArgument},
		{name: "finished_at", fn: func(r *glv1.Run) error { r.FinishedAt = timestamppb.Now(); return nil }, wantErr: ErrInvalidArgument},
		{name: "last_seq", fn: func(r *glv1.Run) error { r.LastSeq = 9; return nil }, wantErr: ErrInvalidArgument},
		{name: "patches", fn: func(r *glv1.Run) error {
			r.Patches = append(r.Patches, &glv1.PatchOutcome{Attempt: 2})
			return nil
		}, wantErr: ErrInvalidArgument},
		{name: "terminal status", fn: func(r *glv1.Run) error { r.Status = glv1.RunStatus_RUN_STATUS_PASSED; return nil }, wantErr: ErrInvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTestStore(t)
			ctx := context.Background()
			mustCreate(t, s, "r1", glv1.RunStatus_RUN_STATUS_PENDING, created)
			mustAppend(t, s, "r1", logEvent("hello"))
			if err := s.PutPatch(ctx, "r1", &glv1.PatchOutcome{Attempt: 1, Diff: "d"}); err != nil {
				t.Fatalf("PutPatch: %v", err)
			}
			var seen *glv1.Run
			_, err := s.UpdateRun(ctx, "r1", func(r *glv1.Run) error {
				seen = proto.Clone(r).(*glv1.Run)
				return tt.fn(r)
			})
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if seen.GetLastSeq() != 1 || len(seen.GetPatches()) != 1 {
				t.Errorf("fn saw last_seq=%d patches=%d, want 1 and 1 (the GetRun view)", seen.GetLastSeq(), len(seen.GetPatches()))
			}
			got, err := s.GetRun(ctx, "r1")
			if err != nil {
				t.Fatalf("GetRun: %v", err)
			}
			if tt.wantErr != nil && !proto.Equal(got, seen) {
				t.Errorf("rejected update changed the run:\n got %v\nwant %v", got, seen)
			}
			if tt.check != nil {
				tt.check(t, got)
			}
		})
	}
}

func TestReopenKeepsData(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/sub/runs.db"
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	mustCreate(t, s, "r1", glv1.RunStatus_RUN_STATUS_RUNNING, time.Now())
	mustAppend(t, s, "r1", logEvent("one"))
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := s.AppendEvent(context.Background(), "r1", logEvent("late")); !errors.Is(err, ErrClosed) {
		t.Errorf("append after Close: err = %v, want ErrClosed", err)
	}
	s, err = Open(path, Options{})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	run, err := s.GetRun(context.Background(), "r1")
	if err != nil {
		t.Fatalf("GetRun after reopen: %v", err)
	}
	if run.GetLastSeq() != 1 {
		t.Errorf("last_seq after reopen = %d, want 1", run.GetLastSeq())
	}
}
