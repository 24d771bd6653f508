package events

import (
	"context"
	"fmt"
	"sync"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Default tuning; see Options.
const (
	DefaultBuffer   = 256
	DefaultPageSize = 256
)

// Log is the part of the run store the hub uses: the run (to know whether it
// exists and where its log ends), its stored events in pages, and durable
// appends for Append and AppendAsync: AppendEventAsync queues an event and
// calls done once it is durable (or refused), in queue order, on one
// goroutine, and never if it returns an error. *store.Store implements it.
type Log interface {
	GetRun(ctx context.Context, id string) (*glv1.Run, error)
	Events(ctx context.Context, runID string, afterSeq uint64, limit int) ([]*glv1.RunEvent, error)
	AppendEventAsync(ctx context.Context, runID string, ev *glv1.RunEvent, done func(seq uint64, err error)) error
}

// Options tune a Hub. The zero value uses the defaults.
type Options struct {
	// Buffer is how many live events a watcher may fall behind before it
	// switches to catching up from the store.
	Buffer int
	// PageSize is how many stored events a watcher reads at a time.
	PageSize int
}

// Hub fans run events out to watchers. It is safe for concurrent use.
type Hub struct {
	log  Log
	opts Options

	mu       sync.RWMutex
	watchers map[string]map[*Subscription]struct{}
}

// NewHub returns a hub that replays from log.
func NewHub(log Log, opts Options) *Hub {
	if opts.Buffer <= 0 {
		opts.Buffer = DefaultBuffer
	}
	if opts.PageSize <= 0 {
		opts.PageSize = DefaultPageSize
	}
	return &Hub{log: log, opts: opts, watchers: make(map[string]map[*Subscription]struct{})}
}

// Append persists ev in the log and then publishes it: the one call a run
// makes per event, which keeps the persist-before-publish order that
// replaying watchers rely on. It returns the event's seq once the event is
// durable and published; ev is shared with watchers afterwards and must not
// be modified. Appends of concurrent callers share transactions (the
// store's group commit); a caller with a burst of events to store uses
// AppendAsync so that its own events share them too.
func (h *Hub) Append(ctx context.Context, runID string, ev *glv1.RunEvent) (uint64, error) {
	var (
		seq  uint64
		err  error
		done = make(chan struct{})
	)
	if qerr := h.AppendAsync(ctx, runID, ev, func(sq uint64, e error) {
		seq, err = sq, e
		close(done)
	}); qerr != nil {
		return 0, qerr
	}
	<-done
	return seq, err
}

// AppendAsync queues ev for the log and returns without waiting for the
// disk. Once the transaction holding ev is durable the hub publishes ev to
// the run's watchers and then calls done (if not nil) with its seq; if the
// log refused ev or its transaction failed, nothing is published and done
// gets the error. Events are stored, published and acknowledged in the
// order they were queued, so the watchers of a run see its events in seq
// order with no gap to catch up from.
//
// done runs on the log's acknowledgement goroutine: it must be quick and
// must not append (it would wait for itself). A nil error means done will be
// called exactly once; an error (an invalid event, a closed log, ctx ending
// while the log's bounded queue is full) means it never will. The caller
// must not touch ev until done is called, nor modify it afterwards.
func (h *Hub) AppendAsync(ctx context.Context, runID string, ev *glv1.RunEvent, done func(seq uint64, err error)) error {
	return h.log.AppendEventAsync(ctx, runID, ev, func(seq uint64, err error) {
		if err == nil {
			h.Publish(runID, ev)
		}
		if done != nil {
			done(seq, err)
		}
	})
}

// Publish offers an already persisted event to the run's current watchers.
// It never blocks: a watcher whose buffer is full misses the event live and
// later reads it from the store. Watchers share ev, so nobody may modify it
// after publishing.
func (h *Hub) Publish(runID string, ev *glv1.RunEvent) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for w := range h.watchers[runID] {
		w.offer(ev)
	}
}

// Watchers returns how many subscriptions follow a run right now.
func (h *Hub) Watchers(runID string) int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.watchers[runID])
}

// Subscribe attaches to a run's events with seq > afterSeq: stored ones
// first, then live ones, ending after RunFinished (at once for a finished run
// with nothing left to replay). An unknown run is the log's not-found error
// (store.ErrNotFound); afterSeq beyond the run's last event is
// ErrInvalidArgument. The caller must Close the subscription.
func (h *Hub) Subscribe(ctx context.Context, runID string, afterSeq uint64) (*Subscription, error) {
	s := &Subscription{
		hub:       h,
		runID:     runID,
		last:      afterSeq,
		live:      make(chan *glv1.RunEvent, h.opts.Buffer),
		lagged:    make(chan struct{}, 1),
		replaying: true,
	}
	// Register before looking at the store: see the package comment.
	h.add(s)
	run, err := h.log.GetRun(ctx, runID)
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("watch run %s: %w", runID, err)
	}
	if afterSeq > run.GetLastSeq() {
		s.Close()
		return nil, fmt.Errorf("watch run %s: after_seq %d is beyond its last event %d: %w",
			runID, afterSeq, run.GetLastSeq(), ErrInvalidArgument)
	}
	if run.GetFinishedAt() != nil && afterSeq == run.GetLastSeq() {
		// The RunFinished event is at or before afterSeq: nothing follows.
		s.finish()
	}
	return s, nil
}

// add registers a subscription for live events.
func (h *Hub) add(s *Subscription) {
	h.mu.Lock()
	defer h.mu.Unlock()
	set := h.watchers[s.runID]
	if set == nil {
		set = make(map[*Subscription]struct{})
		h.watchers[s.runID] = set
	}
	set[s] = struct{}{}
}

// remove unregisters a subscription; it is idempotent.
func (h *Hub) remove(s *Subscription) {
	h.mu.Lock()
	defer h.mu.Unlock()
	set := h.watchers[s.runID]
	delete(set, s)
	if len(set) == 0 {
		delete(h.watchers, s.runID)
	}
}
