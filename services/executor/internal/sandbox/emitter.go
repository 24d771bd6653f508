package sandbox

import (
	"context"
	"sync"
)

// emitter delivers a run's events to its Sink from a single goroutine, in
// the order they were sent, so that step goroutines and log flushers never
// call the sink (a gRPC stream) concurrently.
type emitter struct {
	ch   chan Event
	done chan struct{}
	once sync.Once
}

func newEmitter(sink Sink) *emitter {
	e := &emitter{ch: make(chan Event, 32), done: make(chan struct{})}
	go func() {
		defer close(e.done)
		failed := false
		for ev := range e.ch {
			if failed {
				continue // keep draining so senders never block on a dead sink
			}
			if err := sink(ev); err != nil {
				failed = true
			}
		}
	}()
	return e
}

// send queues ev; it blocks while the sink is slow, until ctx ends.
func (e *emitter) send(ctx context.Context, ev Event) {
	select {
	case e.ch <- ev:
	case <-ctx.Done():
	}
}

// close waits until every queued event has been delivered.
func (e *emitter) close() {
	e.once.Do(func() { close(e.ch) })
	<-e.done
}
