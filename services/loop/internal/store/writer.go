package store

import (
	"context"
	"runtime"
	"sync/atomic"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	bolt "go.etcd.io/bbolt"
)

// maxGroup bounds how many appends share one transaction.
const maxGroup = 256

// WriterStats count the group-commit writer's work since Open.
type WriterStats struct {
	// Appends is the number of AppendEvent calls committed or rejected.
	Appends uint64
	// Commits is the number of transactions they took; Appends/Commits is
	// how many appends shared an fsync on average.
	Commits uint64
}

// writerCounters back WriterStats.
type writerCounters struct {
	appends, commits atomic.Uint64
}

// WriterStats returns the group-commit counters.
func (s *Store) WriterStats() WriterStats {
	return WriterStats{Appends: s.counters.appends.Load(), Commits: s.counters.commits.Load()}
}

// appendGroup is the state one group commit shares between its appends:
// the runs' event usage so far, applied to the caps only if it commits.
type appendGroup struct {
	caps     *eventCap
	usage    map[string]runUsage
	finished map[string]bool
}

// appendReq is one queued AppendEvent.
type appendReq struct {
	runID string
	ev    *glv1.RunEvent
	seq   uint64
	err   error
	done  chan struct{}
}

// enqueue hands req to the writer goroutine.
func (s *Store) enqueue(ctx context.Context, req *appendReq) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return ErrClosed
	}
	select {
	case s.appends <- req:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// writeLoop is the group-commit writer: it takes one queued append, gathers
// whatever else is already waiting (without waiting for more) and commits
// them all in one transaction, i.e. with one fsync.
func (s *Store) writeLoop() {
	defer close(s.done)
	for {
		select {
		case req := <-s.appends:
			s.commit(s.gather(req))
		case <-s.quit:
			return
		}
	}
}

// gather collects the appends already queued behind first.
func (s *Store) gather(first *appendReq) []*appendReq {
	group := []*appendReq{first}
	// Let appenders that the last commit just released queue up again
	// before looking: this doubles the appends per commit with many
	// concurrent runs, costs a lone writer next to nothing and, unlike a
	// timer (bbolt's DB.Batch), never delays anyone.
	runtime.Gosched()
	for len(group) < maxGroup {
		select {
		case req := <-s.appends:
			group = append(group, req)
		default:
			return group
		}
	}
	return group
}

// commit stores a group in one transaction and answers every request. A
// rejected append (unknown or finished run) does not affect the others; a
// failed write or commit fails them all, since nothing was stored.
func (s *Store) commit(group []*appendReq) {
	g := &appendGroup{caps: s.caps, usage: map[string]runUsage{}, finished: map[string]bool{}}
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := open(tx)
		runs := make(map[string]*glv1.Run)
		for _, req := range group {
			seq, reject, writeErr := appendTx(b, runs, g, req.runID, req.ev)
			if writeErr != nil {
				return writeErr
			}
			req.seq, req.err = seq, reject
		}
		return nil
	})
	if err == nil {
		s.caps.commit(g.usage, g.finished)
	}
	s.counters.commits.Add(1)
	s.counters.appends.Add(uint64(len(group)))
	for _, req := range group {
		if err != nil && req.err == nil {
			req.seq, req.err = 0, err
			req.ev.Seq = 0
		}
		close(req.done)
	}
}
