package events

import (
	"context"
	"fmt"
	"io"
	"sync"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Subscription is one watcher's stream of a run's events. Next must not be
// called concurrently; Close may be called at any time.
type Subscription struct {
	hub   *Hub
	runID string

	// live receives published events; lagged is signalled when Publish had
	// to drop one because live was full. Both are never closed.
	live   chan *glv1.RunEvent
	lagged chan struct{}

	// Owned by the Next caller.
	last      uint64           // seq of the last delivered event
	replaying bool             // reading the store rather than live
	pending   []*glv1.RunEvent // current store page
	done      bool             // RunFinished delivered
	catchUps  int              // times the watcher fell behind

	closeOnce sync.Once
}

// Next returns the next event in seq order. It returns io.EOF after the
// run's RunFinished event, and ctx's error when ctx ends first.
func (s *Subscription) Next(ctx context.Context) (*glv1.RunEvent, error) {
	for {
		if ev := s.popPending(); ev != nil {
			return s.deliver(ev), nil
		}
		if s.done {
			return nil, io.EOF
		}
		if s.replaying {
			if err := s.readPage(ctx); err != nil {
				return nil, err
			}
			continue
		}
		select {
		case ev := <-s.live:
			switch {
			case ev.GetSeq() <= s.last: // already delivered from the store
			case ev.GetSeq() > s.last+1: // something in between was missed
				s.catchUp()
			default:
				return s.deliver(ev), nil
			}
		case <-s.lagged:
			s.catchUp()
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// LastSeq returns the seq of the last event Next returned (or the starting
// after_seq): where a client would re-attach.
func (s *Subscription) LastSeq() uint64 { return s.last }

// CatchUps returns how often the watcher fell behind the live stream and
// caught up from the store.
func (s *Subscription) CatchUps() int { return s.catchUps }

// Close stops live delivery to this subscription. It is idempotent.
func (s *Subscription) Close() {
	s.closeOnce.Do(func() { s.hub.remove(s) })
}

// offer hands a published event to the watcher without ever blocking.
func (s *Subscription) offer(ev *glv1.RunEvent) {
	select {
	case s.live <- ev:
	default:
		select {
		case s.lagged <- struct{}{}:
		default: // already marked
		}
	}
}

// popPending returns the next stored event not yet delivered, if any.
func (s *Subscription) popPending() *glv1.RunEvent {
	for len(s.pending) > 0 {
		ev := s.pending[0]
		s.pending[0] = nil
		s.pending = s.pending[1:]
		if ev.GetSeq() > s.last {
			return ev
		}
	}
	return nil
}

// readPage loads the next page from the store; an empty page means the
// watcher has caught up and continues live.
func (s *Subscription) readPage(ctx context.Context) error {
	page, err := s.hub.log.Events(ctx, s.runID, s.last, s.hub.opts.PageSize)
	if err != nil {
		return fmt.Errorf("watch run %s: replay after %d: %w", s.runID, s.last, err)
	}
	s.pending = page
	s.replaying = len(page) > 0
	return nil
}

// deliver records ev as delivered and ends the stream after RunFinished.
func (s *Subscription) deliver(ev *glv1.RunEvent) *glv1.RunEvent {
	s.last = ev.GetSeq()
	if ev.GetRunFinished() != nil {
		s.finish()
	}
	return ev
}

// catchUp switches to reading the store from the last delivered seq.
func (s *Subscription) catchUp() {
	s.catchUps++
	s.replaying = true
}

// finish ends the stream: nothing follows RunFinished.
func (s *Subscription) finish() {
	s.done = true
	s.pending = nil
	s.Close()
}
