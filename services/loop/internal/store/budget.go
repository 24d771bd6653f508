package store

import (
	"container/list"
	"context"
	"sync"
)

// byteBudget is a first-come first-served semaphore over bytes: the appends
// between AppendEventAsync and their acknowledgement hold their size of it.
// Serving in arrival order keeps a large event from starving behind a flood
// of small ones.
type byteBudget struct {
	mu      sync.Mutex
	free    int64
	waiters list.List // of *budgetWaiter, oldest first
}

// budgetWaiter is one acquire waiting for bytes; ready is closed once they
// are granted.
type budgetWaiter struct {
	n     int64
	ready chan struct{}
}

func newByteBudget(n int64) *byteBudget {
	return &byteBudget{free: n}
}

// acquire takes n bytes, waiting behind earlier waiters until they are free
// or ctx ends. n must not exceed the budget's size (callers clamp it).
func (b *byteBudget) acquire(ctx context.Context, n int64) error {
	b.mu.Lock()
	if b.waiters.Len() == 0 && b.free >= n {
		b.free -= n
		b.mu.Unlock()
		return nil
	}
	w := &budgetWaiter{n: n, ready: make(chan struct{})}
	elem := b.waiters.PushBack(w)
	b.mu.Unlock()
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
		b.mu.Lock()
		defer b.mu.Unlock()
		select {
		case <-w.ready:
			// Granted while ctx ended: give the bytes back.
			b.free += n
		default:
			b.waiters.Remove(elem)
		}
		b.grant()
		return ctx.Err()
	}
}

// release gives n bytes back and serves the waiters that now fit.
func (b *byteBudget) release(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.free += n
	b.grant()
}

// grant hands free bytes to the oldest waiters, in order, while the oldest
// fits. Called with mu held.
func (b *byteBudget) grant() {
	for front := b.waiters.Front(); front != nil; front = b.waiters.Front() {
		w := front.Value.(*budgetWaiter)
		if w.n > b.free {
			return
		}
		b.free -= w.n
		b.waiters.Remove(front)
		close(w.ready)
	}
}
