package engine

import (
	"context"
	"fmt"
	"sync"
	"time"

	"go.uber.org/zap"
)

// Engine runs verify and fix runs. It is safe for concurrent use.
type Engine struct {
	d   Deps
	cfg Config
	log *zap.Logger
	now func() time.Time

	// base is canceled by Close: every run's context derives from it.
	base   context.Context
	cancel context.CancelFunc

	mu     sync.Mutex
	closed bool
	runs   sync.WaitGroup
	// live holds each run of this process by id (CancelRun).
	live map[string]liveRun
}

// New returns an engine. Every Deps field but Providers is required.
func New(d Deps, cfg Config, log *zap.Logger) (*Engine, error) {
	if d.Store == nil || d.Hub == nil || d.Blobs == nil || d.Discovery == nil || d.Executor == nil {
		return nil, fmt.Errorf("%w: engine needs a store, a hub, blobs, discovery and executor", ErrInvalidArgument)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if log == nil {
		log = zap.NewNop()
	}
	base, cancel := context.WithCancel(context.Background())
	return &Engine{d: d, cfg: cfg.withDefaults(), log: log, now: time.Now, base: base, cancel: cancel}, nil
}

// Config returns the engine's effective configuration (defaults filled).
func (e *Engine) Config() Config { return e.cfg }

// Close refuses new runs, cancels the running ones (they finish CANCELED)
// and waits until every run has written its last event.
func (e *Engine) Close() {
	e.mu.Lock()
	e.closed = true
	e.mu.Unlock()
	e.cancel()
	e.runs.Wait()
}

// launch starts fn as run id in the background. The run's context ends
// when the caller's ctx ends (unless it is Detached), the engine closes or
// CancelRun names it; done is closed when fn returned.
func (e *Engine) launch(ctx context.Context, id string, fn func(ctx context.Context)) (<-chan struct{}, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil, ErrClosed
	}
	runCtx, cancel := context.WithCancel(e.base)
	stop := func() bool { return false }
	if !isDetached(ctx) {
		stop = context.AfterFunc(ctx, cancel)
	}
	done := make(chan struct{})
	if e.live == nil {
		e.live = map[string]liveRun{}
	}
	e.live[id] = liveRun{cancel: cancel, done: done}
	e.runs.Add(1)
	go func() {
		defer e.runs.Done()
		defer close(done)
		defer e.forget(id)
		defer cancel()
		defer stop()
		fn(runCtx)
	}()
	return done, nil
}

// forget drops a finished run's cancel function.
func (e *Engine) forget(id string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.live, id)
}

// liveRun is a running run's handle.
type liveRun struct {
	cancel context.CancelFunc
	done   <-chan struct{}
}
