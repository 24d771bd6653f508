package engine

import (
	"context"
	"errors"
	"fmt"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

// detachedCtxKey marks a request whose runs outlive it.
type detachedCtxKey struct{}

// Detached returns ctx marking the runs started with it as detached: the
// request ending (a stream dropped, StartRun returning) does not cancel
// them; CancelRun or the engine closing does.
func Detached(ctx context.Context) context.Context {
	return context.WithValue(ctx, detachedCtxKey{}, true)
}

func isDetached(ctx context.Context) bool {
	d, _ := ctx.Value(detachedCtxKey{}).(bool)
	return d
}

// CancelRun stops run id if it runs in this process (it finishes CANCELED,
// its events so far kept), waits until it has written its last event or
// ctx ends, and returns the run as stored then. A finished run is returned
// unchanged; an unknown id is ErrNotFound.
func (e *Engine) CancelRun(ctx context.Context, id string) (*glv1.Run, error) {
	if id == "" {
		return nil, fmt.Errorf("%w: run_id is empty: pass the id from RunCreated, StartRun or ListRuns", ErrInvalidArgument)
	}
	if _, err := e.d.Store.GetRun(ctx, id); errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("%w: run %q (ListRuns lists the runs)", store.ErrNotFound, id)
	} else if err != nil {
		return nil, err
	}
	e.mu.Lock()
	lr, ok := e.live[id]
	e.mu.Unlock()
	if ok {
		lr.cancel()
		select {
		case <-lr.done:
		case <-ctx.Done():
		}
	}
	return e.d.Store.GetRun(ctx, id)
}
