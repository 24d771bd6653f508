package fanout

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Defaults for Options.
const (
	DefaultWindow       = 4096
	DefaultWindowBytes  = 32 << 20
	DefaultStallTimeout = 3 * time.Second
)

// Source opens upstream WatchRun streams; the loop's RunServiceClient is one.
type Source interface {
	WatchRun(ctx context.Context, in *glv1.WatchRunRequest, opts ...grpc.CallOption) (grpc.ServerStreamingClient[glv1.WatchRunResponse], error)
}

// Options size the per-run window and the patience with slow watchers.
// Zero values take the defaults.
type Options struct {
	// Window is how many recent events a feed keeps.
	Window int
	// WindowBytes caps the encoded size of the kept events.
	WindowBytes int64
	// StallTimeout is how long a watcher that holds back a full window may
	// go without progress before it is dropped.
	StallTimeout time.Duration
}

func (o Options) withDefaults() Options {
	if o.Window <= 0 {
		o.Window = DefaultWindow
	}
	if o.WindowBytes <= 0 {
		o.WindowBytes = DefaultWindowBytes
	}
	if o.StallTimeout <= 0 {
		o.StallTimeout = DefaultStallTimeout
	}
	return o
}

// Hub owns the feeds of all watched runs.
type Hub struct {
	ctx  context.Context
	src  Source
	opts Options
	log  *zap.Logger

	mu    sync.Mutex
	feeds map[string]*feed

	upstreams atomic.Uint64
}

// NewHub returns a hub reading from src. ctx bounds every upstream stream;
// cancel it at shutdown.
func NewHub(ctx context.Context, src Source, log *zap.Logger, opts Options) *Hub {
	if log == nil {
		log = zap.NewNop()
	}
	return &Hub{ctx: ctx, src: src, opts: opts.withDefaults(), log: log, feeds: map[string]*feed{}}
}

// Stats are counters for tests and metrics.
type Stats struct {
	// Upstreams counts WatchRun streams opened upstream so far (shared
	// feeds and catch-ups).
	Upstreams uint64
	// Feeds is the number of runs watched right now.
	Feeds int
}

// Stats returns the current counters.
func (h *Hub) Stats() Stats {
	h.mu.Lock()
	defer h.mu.Unlock()
	return Stats{Upstreams: h.upstreams.Load(), Feeds: len(h.feeds)}
}

// acquire returns the run's live feed, starting one at after if there is
// none, and counts the caller as its user.
func (h *Hub) acquire(runID string, after uint64) *feed {
	h.mu.Lock()
	defer h.mu.Unlock()
	f := h.feeds[runID]
	if f == nil {
		f = newFeed(h, runID, after)
		h.feeds[runID] = f
		h.upstreams.Add(1)
		go f.run()
	}
	f.refs++
	return f
}

// release drops the caller's use of f; the last user cancels the upstream.
func (h *Hub) release(f *feed, w *watcher) {
	f.leave(w)
	h.mu.Lock()
	defer h.mu.Unlock()
	f.refs--
	if f.refs == 0 {
		f.cancel()
		if h.feeds[f.runID] == f {
			delete(h.feeds, f.runID)
		}
	}
}

// forget removes a finished feed so that the next watcher starts afresh
// (from the loop's store); watchers attached to it keep draining it.
func (h *Hub) forget(f *feed) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.feeds[f.runID] == f {
		delete(h.feeds, f.runID)
	}
}
