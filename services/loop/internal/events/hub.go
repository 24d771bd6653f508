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
// appends for Append. *store.Store implements it.
type Log interface {
	GetRun(ctx context.Context, id string) (*glv1.Run, error)
	Events(ctx context.Context, runID string, afterSeq uint64, limit int) ([]*glv1.RunEvent, error)
	AppendEvent(ctx context.Context, runID string, ev *glv1.RunEvent) (uint64, error)
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
// replaying watchers rely on. It returns the event's seq; ev is shared with
// watchers afterwards and must not be modified.
func (h *Hub) Append(ctx context.Context, runID string, ev *glv1.RunEvent) (uint64, error) {
	seq, err := h.log.AppendEvent(ctx, runID, ev)
	if err != nil {
		return 0, err
	}
	h.Publish(runID, ev)
	return seq, nil
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
