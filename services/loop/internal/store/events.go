package store

import (
	"context"
	"fmt"
	"math"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	bolt "go.etcd.io/bbolt"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// eventLogFill is how full bbolt packs an event log's pages.
const eventLogFill = 0.9

// Bounds for Events' limit.
const (
	DefaultEventsLimit = 512
	MaxEventsLimit     = 10000
)

// AppendEvent durably appends ev to the run's event log and returns its seq.
// The store assigns ev.Seq (the run's last_seq + 1), sets ev.RunId and, when
// unset, ev.Time — updating the caller's message, which the caller then
// publishes to live watchers (persist first, then publish) and must not
// modify afterwards.
//
// A RunFinished event finishes the run in the same transaction: status,
// finished_at (= the event time) and, when present, result and metrics are
// copied onto the run. Appending to a finished run fails with ErrFinished.
// ctx bounds only the wait for the writer; once queued, the append completes.
//
// AppendEvent returns once the transaction holding ev is durable; appends
// from other goroutines share that transaction (see AppendEventAsync). It
// must not be called from an AppendEventAsync callback.
func (s *Store) AppendEvent(ctx context.Context, runID string, ev *glv1.RunEvent) (uint64, error) {
	var (
		seq  uint64
		err  error
		done = make(chan struct{})
	)
	if qerr := s.AppendEventAsync(ctx, runID, ev, func(sq uint64, e error) {
		seq, err = sq, e
		close(done)
	}); qerr != nil {
		return 0, qerr
	}
	<-done
	return seq, err
}

// AppendEventAsync queues ev for the run's event log and returns without
// waiting for the disk: the group-commit writer stores it with whatever else
// is queued in one transaction, and done is called with ev's seq once that
// transaction is durable — or with the error that refused ev (ErrNotFound,
// ErrFinished, ErrEventCap) or failed the whole transaction. Until done is
// called the caller must not touch ev; AppendEvent describes what the store
// sets on it.
//
// Appends are stored in the order they were queued, so one goroutine's
// appends to a run get increasing seqs, and done is called in that order too
// (for every run, on one goroutine the store owns): a callback must be quick
// and must not append, or it stalls every acknowledgement.
//
// A nil error means done will be called exactly once; otherwise (an invalid
// event, a closed store, ctx ending while the queue is full) it is never
// called. The queue is bounded in appends and bytes, so producers that
// outrun the disk wait here. ctx bounds only that wait.
func (s *Store) AppendEventAsync(ctx context.Context, runID string, ev *glv1.RunEvent, done func(seq uint64, err error)) error {
	if err := checkEvent(runID, ev); err != nil {
		return fmt.Errorf("append event to run %s: %w", runID, err)
	}
	if ev.Time == nil {
		ev.Time = timestamppb.New(s.now())
	}
	req := &appendReq{runID: runID, ev: ev, done: func(seq uint64, err error) {
		if err != nil {
			err = fmt.Errorf("append event to run %s: %w", runID, err)
		}
		done(seq, err)
	}}
	if err := s.enqueue(ctx, req); err != nil {
		return fmt.Errorf("append event to run %s: %w", runID, err)
	}
	return nil
}

// Finish ends a run: it appends RunFinished (which sets status, finished_at,
// result and metrics) and returns the stored event for publishing.
func (s *Store) Finish(ctx context.Context, runID string, fin *glv1.RunFinished) (*glv1.RunEvent, error) {
	ev := &glv1.RunEvent{Kind: &glv1.RunEvent_RunFinished{RunFinished: fin}}
	if _, err := s.AppendEvent(ctx, runID, ev); err != nil {
		return nil, err
	}
	return ev, nil
}

// checkEvent rejects events that cannot go into a log.
func checkEvent(runID string, ev *glv1.RunEvent) error {
	switch {
	case ev == nil || ev.GetKind() == nil:
		return fmt.Errorf("event has no kind: %w", ErrInvalidArgument)
	case ev.GetSeq() != 0:
		return fmt.Errorf("event already has seq %d; seqs are assigned by the store: %w", ev.GetSeq(), ErrInvalidArgument)
	case ev.GetRunId() != "" && ev.GetRunId() != runID:
		return fmt.Errorf("event belongs to run %q: %w", ev.GetRunId(), ErrInvalidArgument)
	case ev.GetResumeFrom() != nil:
		return fmt.Errorf("ResumeFrom is stream control, never stored: %w", ErrInvalidArgument)
	case ev.GetRunFinished() != nil && !Finished(ev.GetRunFinished().GetStatus()):
		return fmt.Errorf("RunFinished with non-final status %s: %w", ev.GetRunFinished().GetStatus(), ErrInvalidArgument)
	}
	return nil
}

// appendTx stores one event inside a write transaction. Validation errors
// (ErrNotFound, ErrFinished, marshalling) are returned as reject and leave
// the transaction untouched; write errors abort the whole transaction.
// runs caches decoded runs across the appends of one group commit; g holds
// the group's event usage for the per-run cap.
func appendTx(b buckets, runs map[string]*glv1.Run, g *appendGroup, runID string, ev *glv1.RunEvent) (seq uint64, reject, writeErr error) {
	run, ok := runs[runID]
	if !ok {
		var err error
		if run, err = loadRun(b, runID, false); err != nil {
			return 0, err, nil
		}
		runs[runID] = run
	}
	if Finished(run.GetStatus()) {
		return 0, fmt.Errorf("status %s: %w", run.GetStatus(), ErrFinished), nil
	}
	log, err := b.events.CreateBucketIfNotExists([]byte(runID))
	if err != nil {
		return 0, nil, err
	}
	// Seqs only grow: fill pages before splitting them (bbolt's default
	// leaves every page of an append-only bucket half empty).
	log.FillPercent = eventLogFill
	seq = log.Sequence() + 1
	ev.RunId, ev.Seq = runID, seq
	val, err := proto.Marshal(ev)
	if err != nil {
		ev.Seq = 0
		return 0, fmt.Errorf("marshal event: %w", err), nil
	}
	if err := g.track(log, runID, ev, len(val)); err != nil {
		ev.Seq = 0
		return 0, err, nil
	}
	if err := log.Put(seqKey(seq), val); err != nil {
		return 0, nil, err
	}
	if err := log.SetSequence(seq); err != nil {
		return 0, nil, err
	}
	if !droppable(ev) {
		if err := grantRunBlobs(b, runID, ev); err != nil {
			return 0, nil, err
		}
	}
	if fin := ev.GetRunFinished(); fin != nil {
		g.finished[runID] = true
		return seq, nil, finishTx(b, run, ev, fin)
	}
	return seq, nil, nil
}

// finishTx copies a RunFinished event onto its run record.
func finishTx(b buckets, run *glv1.Run, ev *glv1.RunEvent, fin *glv1.RunFinished) error {
	run.Status = fin.GetStatus()
	run.FinishedAt = ev.GetTime()
	if fin.GetResult() != nil {
		run.Result = fin.GetResult()
	}
	if fin.GetMetrics() != nil {
		run.Metrics = fin.GetMetrics()
	}
	return putRun(b, run)
}

// Events returns up to limit events of a run with seq > afterSeq, in seq
// order (limit 0 means DefaultEventsLimit; at most MaxEventsLimit). An
// unknown run, or one ctx's viewer may not see, is ErrNotFound; an empty slice means nothing newer is stored.
// Readers that want everything call it in a loop: it never holds a read
// transaction across calls.
func (s *Store) Events(ctx context.Context, runID string, afterSeq uint64, limit int) ([]*glv1.RunEvent, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	switch {
	case limit < 0:
		return nil, fmt.Errorf("events of run %s: limit %d is negative: %w", runID, limit, ErrInvalidArgument)
	case limit == 0:
		limit = DefaultEventsLimit
	case limit > MaxEventsLimit:
		limit = MaxEventsLimit
	}
	if afterSeq == math.MaxUint64 {
		return nil, nil // nothing can follow; afterSeq+1 would wrap to 0
	}
	var out []*glv1.RunEvent
	err := s.db.View(func(tx *bolt.Tx) error {
		b := open(tx)
		log := b.events.Bucket([]byte(runID))
		if log == nil || checkVisible(ctx, b, runID) != nil {
			return ErrNotFound
		}
		c := log.Cursor()
		for k, v := c.Seek(seqKey(afterSeq + 1)); k != nil && len(out) < limit; k, v = c.Next() {
			ev := &glv1.RunEvent{}
			if err := proto.Unmarshal(v, ev); err != nil {
				return fmt.Errorf("decode event %x: %w", k, err)
			}
			out = append(out, ev)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("events of run %s: %w", runID, err)
	}
	return out, nil
}
