package store

import (
	"context"
	"fmt"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	bolt "go.etcd.io/bbolt"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// InterruptedMessage is the error recorded on runs that RecoverInterrupted
// closes.
const InterruptedMessage = "interrupted: the greenlight process stopped before the run finished"

// RecoverInterrupted closes the runs a killed process left PENDING or
// RUNNING: each gets a RunFinished{INTERRUPTED} event at now (so watchers'
// streams end), finished_at = now and InterruptedMessage as its error; every
// earlier event stays as it was. Call it once at start-up, before serving:
// the file lock guarantees no other process is still working on them. It
// returns the ids it closed, oldest first.
func (s *Store) RecoverInterrupted(ctx context.Context, now time.Time) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var ids []string
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := open(tx)
		ids = activeRunIDs(b)
		runs := make(map[string]*glv1.Run, len(ids))
		for _, id := range ids {
			if err := interruptTx(b, runs, id, now); err != nil {
				return fmt.Errorf("run %s: %w", id, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("recover interrupted runs: %w", err)
	}
	return ids, nil
}

// activeRunIDs lists unfinished runs from the index, oldest first. It
// collects before anything is modified: changing a bucket under a cursor
// invalidates the cursor.
func activeRunIDs(b buckets) []string {
	var ids []string
	c := b.byCreated.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if !active(glv1.RunStatus(statusOf(v))) {
			continue
		}
		if _, id, ok := createdKeyParts(k); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

// interruptTx appends the closing RunFinished{INTERRUPTED} of one run.
func interruptTx(b buckets, runs map[string]*glv1.Run, id string, now time.Time) error {
	run, err := loadRun(b, id, false)
	if err != nil {
		return err
	}
	if run.GetError() == "" {
		run.Error = InterruptedMessage
	}
	runs[id] = run
	ev := &glv1.RunEvent{
		Time: timestamppb.New(now),
		Kind: &glv1.RunEvent_RunFinished{RunFinished: &glv1.RunFinished{Status: glv1.RunStatus_RUN_STATUS_INTERRUPTED}},
	}
	// RunFinished is never capped, so the group's usage is not needed.
	g := &appendGroup{caps: newEventCap(Options{}), usage: map[string]runUsage{}, finished: map[string]bool{}}
	_, reject, writeErr := appendTx(b, runs, g, id, ev)
	if reject != nil {
		return reject
	}
	return writeErr
}
