package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	bolt "go.etcd.io/bbolt"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// hashOf returns a well-formed 64-character hash made of c.
func hashOf(c byte) string { return strings.Repeat(string(c), hashLen) }

// createOwned creates a PENDING verify run of owner with snapshot hash.
func createOwned(t *testing.T, s *Store, id, owner, snapshot string, created time.Time) {
	t.Helper()
	run := &glv1.Run{Id: id, Kind: glv1.RunKind_RUN_KIND_VERIFY, CreatedAt: timestamppb.New(created),
		Snapshot: &glv1.Digest{Hash: snapshot, SizeBytes: 10}}
	if err := s.CreateOwnedRun(context.Background(), run, owner); err != nil {
		t.Fatalf("CreateOwnedRun(%s): %v", id, err)
	}
}

// TestViewerSeesOnlyItsRuns: through a context with a viewer, another
// owner's run and an unowned one are exactly like runs that do not exist
// (same error, same message but for the id); listings leave them out and
// still page correctly; without a viewer everything is visible.
func TestViewerSeesOnlyItsRuns(t *testing.T) {
	s, clock := newTestStore(t)
	t0 := clock.t
	// Newest first: a3, b2, legacy, a1, b1, a0.
	createOwned(t, s, "a0", "token:a", hashOf('1'), t0)
	createOwned(t, s, "b1", "token:b", hashOf('2'), t0.Add(1*time.Second))
	createOwned(t, s, "a1", "token:a", hashOf('3'), t0.Add(2*time.Second))
	mustCreate(t, s, "legacy", glv1.RunStatus_RUN_STATUS_PENDING, t0.Add(3*time.Second))
	createOwned(t, s, "b2", "token:b", hashOf('4'), t0.Add(4*time.Second))
	createOwned(t, s, "a3", "token:a", hashOf('5'), t0.Add(5*time.Second))
	for _, id := range []string{"a0", "b1", "a1", "legacy", "b2", "a3"} {
		mustAppend(t, s, id, logEvent("x"))
	}

	bg := context.Background()
	asA, asB, asNobody := WithViewer(bg, "token:a"), WithViewer(bg, "token:b"), WithViewer(bg, "")
	tests := []struct {
		name   string
		ctx    context.Context
		listed []string
	}{
		{"owner a", asA, []string{"a3", "a1", "a0"}},
		{"owner b", asB, []string{"b2", "b1"}},
		{"empty viewer sees nothing, not the unowned run", asNobody, nil},
		{"no viewer sees all", bg, []string{"a3", "b2", "legacy", "a1", "b1", "a0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Page size 1 crosses hidden runs between every page.
			var got []string
			token := ""
			for {
				page, err := s.ListRuns(tt.ctx, ListQuery{PageSize: 1, PageToken: token})
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range page.Runs {
					got = append(got, r.GetId())
				}
				if token = page.NextPageToken; token == "" {
					break
				}
			}
			if strings.Join(got, ",") != strings.Join(tt.listed, ",") {
				t.Fatalf("listed %v, want %v", got, tt.listed)
			}
			shown := map[string]bool{}
			for _, id := range tt.listed {
				shown[id] = true
			}
			for _, id := range []string{"a0", "b1", "a1", "legacy", "b2", "a3"} {
				_, getErr := s.GetRun(tt.ctx, id)
				_, evErr := s.Events(tt.ctx, id, 0, 0)
				if shown[id] {
					if getErr != nil || evErr != nil {
						t.Errorf("%s: GetRun %v, Events %v; want visible", id, getErr, evErr)
					}
					continue
				}
				_, missGet := s.GetRun(tt.ctx, "zz")
				_, missEv := s.Events(tt.ctx, "zz", 0, 0)
				for _, pair := range [][2]error{{getErr, missGet}, {evErr, missEv}} {
					if !errors.Is(pair[0], ErrNotFound) || strings.ReplaceAll(pair[0].Error(), id, "zz") != pair[1].Error() {
						t.Errorf("%s: hidden run answers %v; a missing one %v", id, pair[0], pair[1])
					}
				}
			}
		})
	}
}

// TestGrantsFollowTheRunsBlobs: the owner of a run may read every blob
// the run names (snapshot, a step's log, a patched snapshot, the current
// snapshot), and nobody else may; live log chunks grant nothing; an
// upload grant is the uploader's alone; grants and owners survive a
// reopen; pruning a run forgets its owner.
func TestGrantsFollowTheRunsBlobs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	snap, logHash, patched, current, inChunk, uploaded := hashOf('a'), hashOf('b'), hashOf('c'), hashOf('d'), hashOf('e'), hashOf('f')
	createOwned(t, s, "r1", "token:a", snap, time.Now())
	mustAppend(t, s, "r1", &glv1.RunEvent{Kind: &glv1.RunEvent_StepFinished{StepFinished: &glv1.StepFinished{
		Result: &glv1.StepResult{Name: "test", LogDigest: &glv1.Digest{Hash: logHash, SizeBytes: 3}}}}})
	mustAppend(t, s, "r1", logEvent("a log line quoting "+inChunk))
	if err := s.PutPatch(ctx, "r1", &glv1.PatchOutcome{Attempt: 1, SnapshotAfter: &glv1.Digest{Hash: patched, SizeBytes: 4}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateRun(ctx, "r1", func(r *glv1.Run) error {
		r.CurrentSnapshot = &glv1.Digest{Hash: current, SizeBytes: 5}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.GrantBlob(ctx, "token:b", uploaded); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	tests := []struct {
		owner, hash string
		want        bool
	}{
		{"token:a", snap, true},
		{"token:a", logHash, true},
		{"token:a", patched, true},
		{"token:a", current, true},
		{"token:a", inChunk, false},
		{"token:a", uploaded, false},
		{"token:b", snap, false},
		{"token:b", logHash, false},
		{"token:b", current, false},
		{"token:b", uploaded, true},
		{"", snap, false},
	}
	for _, tt := range tests {
		if got, err := s.BlobGranted(ctx, tt.owner, tt.hash); err != nil || got != tt.want {
			t.Errorf("BlobGranted(%q, %s…) = %v, %v; want %v", tt.owner, tt.hash[:4], got, err, tt.want)
		}
	}
	if owner, err := s.RunOwner(ctx, "r1"); err != nil || owner != "token:a" {
		t.Fatalf("owner after reopen = %q, %v", owner, err)
	}

	mustFinish(t, s, "r1", glv1.RunStatus_RUN_STATUS_PASSED)
	if _, err := s.Prune(ctx, Retention{KeepRuns: 0, MaxAge: time.Nanosecond}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RunOwner(ctx, "r1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("owner of a pruned run: %v, want ErrNotFound", err)
	}
	if err := s.db.View(func(tx *bolt.Tx) error {
		if v := open(tx).runOwners.Get([]byte("r1")); v != nil {
			t.Errorf("pruned run's owner entry left: %q", v)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
