package store

import (
	"context"
	"fmt"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	bolt "go.etcd.io/bbolt"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// maxRunIDLen bounds run ids (they are bbolt keys and appear in URLs).
const maxRunIDLen = 128

// CreateRun stores a new run before any work starts on it. An empty id is
// filled with NewRunID, a missing created_at with the store clock and an
// unspecified status with PENDING; the caller's message is updated in place.
// It also creates the run's (empty) event log. The run has no owner: only
// readers without a viewer (see WithViewer) see it.
func (s *Store) CreateRun(ctx context.Context, run *glv1.Run) error {
	return s.CreateOwnedRun(ctx, run, "")
}

// CreateOwnedRun is CreateRun for a run that belongs to owner: in the same
// transaction it records the owner and opens to it the blobs the run
// refers to (its snapshot).
func (s *Store) CreateOwnedRun(ctx context.Context, run *glv1.Run, owner string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := s.prepareNewRun(run); err != nil {
		return err
	}
	val, err := proto.Marshal(run)
	if err != nil {
		return fmt.Errorf("create run %s: marshal: %w", run.GetId(), err)
	}
	err = s.db.Update(func(tx *bolt.Tx) error {
		b := open(tx)
		id := []byte(run.GetId())
		if b.runs.Get(id) != nil {
			return fmt.Errorf("create run %s: %w", run.GetId(), ErrAlreadyExists)
		}
		if err := b.runs.Put(id, val); err != nil {
			return err
		}
		if err := b.byCreated.Put(createdKey(run.GetCreatedAt().AsTime(), run.GetId()), statusValue(int32(run.GetStatus()))); err != nil {
			return err
		}
		if owner != "" {
			if err := b.runOwners.Put(id, []byte(owner)); err != nil {
				return err
			}
			if err := grantRunBlobs(b, run.GetId(), run); err != nil {
				return err
			}
		}
		_, err := b.events.CreateBucket(id)
		return err
	})
	if err != nil {
		return fmt.Errorf("create run %s: %w", run.GetId(), err)
	}
	return nil
}

// prepareNewRun validates and defaults a run about to be created.
func (s *Store) prepareNewRun(run *glv1.Run) error {
	if run == nil {
		return fmt.Errorf("create run: nil run: %w", ErrInvalidArgument)
	}
	if run.GetId() == "" {
		run.Id = NewRunID(s.now())
	}
	if len(run.GetId()) > maxRunIDLen {
		return fmt.Errorf("create run: id is %d bytes, at most %d allowed: %w", len(run.GetId()), maxRunIDLen, ErrInvalidArgument)
	}
	if run.GetStatus() == glv1.RunStatus_RUN_STATUS_UNSPECIFIED {
		run.Status = glv1.RunStatus_RUN_STATUS_PENDING
	}
	if !active(run.GetStatus()) {
		return fmt.Errorf("create run %s: status %s, a new run must be PENDING or RUNNING: %w", run.GetId(), run.GetStatus(), ErrInvalidArgument)
	}
	if run.GetFinishedAt() != nil || run.GetLastSeq() != 0 || len(run.GetPatches()) != 0 {
		return fmt.Errorf("create run %s: finished_at, last_seq and patches are set by the store: %w", run.GetId(), ErrInvalidArgument)
	}
	if run.GetCreatedAt() == nil {
		run.CreatedAt = timestamppb.New(s.now())
	}
	return nil
}

// GetRun returns a run with last_seq and its patch outcomes filled in. A
// run ctx's viewer may not see (WithViewer) is ErrNotFound.
func (s *Store) GetRun(ctx context.Context, id string) (*glv1.Run, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var run *glv1.Run
	err := s.db.View(func(tx *bolt.Tx) error {
		b := open(tx)
		if err := checkVisible(ctx, b, id); err != nil {
			return err
		}
		var err error
		run, err = loadRun(b, id, true)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("get run %s: %w", id, err)
	}
	return run, nil
}

// UpdateRun reads a run, applies fn and writes it back in one transaction;
// an error from fn aborts the update and is returned. fn sees the run as
// GetRun returns it. It may change anything except: id, created_at,
// finished_at, last_seq and patches (use PutPatch) are owned by the store,
// and status may only move between PENDING and RUNNING — a run is finished by
// appending its RunFinished event (see Finish). It returns the updated run.
func (s *Store) UpdateRun(ctx context.Context, id string, fn func(*glv1.Run) error) (*glv1.Run, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var updated *glv1.Run
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := open(tx)
		before, err := loadRun(b, id, true)
		if err != nil {
			return err
		}
		run := proto.Clone(before).(*glv1.Run)
		if err := fn(run); err != nil {
			return err
		}
		if err := checkUpdate(before, run); err != nil {
			return err
		}
		if err := putRun(b, run); err != nil {
			return err
		}
		updated = run
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("update run %s: %w", id, err)
	}
	return updated, nil
}

// checkUpdate enforces what UpdateRun may not change.
func checkUpdate(before, after *glv1.Run) error {
	switch {
	case after.GetId() != before.GetId():
		return fmt.Errorf("id cannot change (to %q): %w", after.GetId(), ErrInvalidArgument)
	case !proto.Equal(after.GetCreatedAt(), before.GetCreatedAt()):
		return fmt.Errorf("created_at cannot change: %w", ErrInvalidArgument)
	case !proto.Equal(after.GetFinishedAt(), before.GetFinishedAt()):
		return fmt.Errorf("finished_at is set by the RunFinished event (use Finish): %w", ErrInvalidArgument)
	case after.GetLastSeq() != before.GetLastSeq():
		return fmt.Errorf("last_seq is assigned by AppendEvent: %w", ErrInvalidArgument)
	case !samePatches(before.GetPatches(), after.GetPatches()):
		return fmt.Errorf("patches are written with PutPatch: %w", ErrInvalidArgument)
	case after.GetStatus() != before.GetStatus() && !(active(before.GetStatus()) && active(after.GetStatus())):
		return fmt.Errorf("status %s → %s: only PENDING ↔ RUNNING here, a run finishes with its RunFinished event (use Finish): %w",
			before.GetStatus(), after.GetStatus(), ErrInvalidArgument)
	}
	return nil
}

// samePatches reports whether two patch lists are equal.
func samePatches(a, b []*glv1.PatchOutcome) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !proto.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// loadRun reads a run and fills last_seq (and, if withPatches, patches).
func loadRun(b buckets, id string, withPatches bool) (*glv1.Run, error) {
	val := b.runs.Get([]byte(id))
	if val == nil {
		return nil, ErrNotFound
	}
	run := &glv1.Run{}
	if err := proto.Unmarshal(val, run); err != nil {
		return nil, fmt.Errorf("decode run: %w", err)
	}
	if ev := b.events.Bucket([]byte(id)); ev != nil {
		run.LastSeq = ev.Sequence()
	}
	if withPatches {
		patches, err := loadPatches(b, id)
		if err != nil {
			return nil, err
		}
		run.Patches = patches
	}
	return run, nil
}

// putRun writes a run record (without the derived fields) and refreshes its
// index entry, whose value carries the status.
func putRun(b buckets, run *glv1.Run) error {
	// Derived fields are blanked for the marshal only; run is ours here.
	seq, patches := run.LastSeq, run.Patches
	run.LastSeq, run.Patches = 0, nil
	val, err := proto.Marshal(run)
	run.LastSeq, run.Patches = seq, patches
	if err != nil {
		return fmt.Errorf("marshal run: %w", err)
	}
	if err := b.runs.Put([]byte(run.GetId()), val); err != nil {
		return err
	}
	if err := grantRunBlobs(b, run.GetId(), run); err != nil {
		return err
	}
	return b.byCreated.Put(createdKey(run.GetCreatedAt().AsTime(), run.GetId()), statusValue(int32(run.GetStatus())))
}
