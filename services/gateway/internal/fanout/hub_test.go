package fanout

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/loopfake"
)

// collector records what one watcher received.
type collector struct {
	mu     sync.Mutex
	events []*glv1.RunEvent
	got    chan struct{} // receives after every event, never blocks
}

func newCollector() *collector { return &collector{got: make(chan struct{}, 1)} }

func (c *collector) send(ev *glv1.RunEvent) error {
	c.mu.Lock()
	c.events = append(c.events, ev)
	c.mu.Unlock()
	select {
	case c.got <- struct{}{}:
	default:
	}
	return nil
}

func (c *collector) snapshot() []*glv1.RunEvent {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*glv1.RunEvent(nil), c.events...)
}

// logEvents returns n log events numbered in their data.
func logEvents(n int) []*glv1.RunEvent {
	evs := make([]*glv1.RunEvent, n)
	for i := range evs {
		evs[i] = loopfake.LogEvent(0, "go-test", fmt.Sprintf("line %d\n", i+1))
	}
	return evs
}

// checkSeqs fails unless evs are exactly seqs from+1..to in order.
func checkSeqs(t *testing.T, name string, evs []*glv1.RunEvent, from, to uint64) {
	t.Helper()
	if uint64(len(evs)) != to-from {
		t.Fatalf("%s got %d events, want %d (seq %d..%d)", name, len(evs), to-from, from+1, to)
	}
	for i, ev := range evs {
		if want := from + uint64(i) + 1; ev.GetSeq() != want {
			t.Fatalf("%s event %d has seq %d, want %d", name, i, ev.GetSeq(), want)
		}
	}
}

func newHub(t *testing.T, opts Options) (*Hub, *loopfake.Loop) {
	t.Helper()
	loop := loopfake.Start(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return NewHub(ctx, glv1.NewRunServiceClient(loop.Conn), nil, opts), loop
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestHundredWatchersShareOneUpstream(t *testing.T) {
	hub, loop := newHub(t, Options{})
	loop.Emit("r1", loopfake.Created("r1"))
	const watchers = 100
	cols := make([]*collector, watchers)
	errs := make(chan error, watchers)
	for i := range cols {
		cols[i] = newCollector()
		go func(c *collector) { errs <- hub.Watch(context.Background(), "r1", 0, c.send) }(cols[i])
	}
	for _, c := range cols {
		<-c.got // every watcher has replayed RunCreated: all are attached
	}
	loop.Emit("r1", logEvents(300)...)
	loop.Emit("r1", loopfake.Finished(glv1.RunStatus_RUN_STATUS_PASSED, &glv1.Result{}))
	for range watchers {
		if err := <-errs; err != nil {
			t.Fatalf("watch ended with %v", err)
		}
	}
	for i, c := range cols {
		checkSeqs(t, fmt.Sprintf("watcher %d", i), c.snapshot(), 0, 302)
	}
	if got := loop.WatchCalls(); got != 1 {
		t.Fatalf("upstream WatchRun calls = %d, want 1", got)
	}
	if s := hub.Stats(); s.Upstreams != 1 || s.Feeds != 0 {
		t.Fatalf("stats = %+v, want 1 upstream and no feed left", s)
	}
}

func TestLateWatcherBehindTheWindowCatchesUpThenJoins(t *testing.T) {
	hub, loop := newHub(t, Options{Window: 8})
	loop.Emit("r1", logEvents(50)...)
	first := newCollector()
	firstDone := make(chan error, 1)
	go func() { firstDone <- hub.Watch(context.Background(), "r1", 0, first.send) }()
	waitFor(t, "the first watcher to replay 50 events", func() bool { return len(first.snapshot()) == 50 })

	late := newCollector()
	lateDone := make(chan error, 1)
	go func() { lateDone <- hub.Watch(context.Background(), "r1", 3, late.send) }()
	waitFor(t, "the late watcher to catch up", func() bool { return len(late.snapshot()) == 47 })
	// The catch-up stream must close once the late watcher joined the feed.
	waitFor(t, "one active upstream watch", func() bool { return loop.ActiveWatches() == 1 })
	loop.Emit("r1", logEvents(20)...)
	loop.Emit("r1", loopfake.Finished(glv1.RunStatus_RUN_STATUS_FAILED, &glv1.Result{}))
	if err := <-firstDone; err != nil {
		t.Fatal(err)
	}
	if err := <-lateDone; err != nil {
		t.Fatal(err)
	}
	checkSeqs(t, "first", first.snapshot(), 0, 71)
	checkSeqs(t, "late", late.snapshot(), 3, 71)
	if got := loop.WatchCalls(); got != 2 {
		t.Fatalf("upstream WatchRun calls = %d, want 2 (feed + one catch-up)", got)
	}
}

func TestStalledWatcherIsDroppedWithResumeFrom(t *testing.T) {
	hub, loop := newHub(t, Options{Window: 16, StallTimeout: 200 * time.Millisecond})
	loop.Emit("r1", loopfake.Created("r1"))

	// The stalled watcher takes one event, then blocks in send like a
	// client that stopped reading.
	unblock := make(chan struct{})
	stalled := newCollector()
	stalledSend := func(ev *glv1.RunEvent) error {
		if len(stalled.snapshot()) == 1 {
			<-unblock
		}
		return stalled.send(ev)
	}
	stalledDone := make(chan error, 1)
	go func() { stalledDone <- hub.Watch(context.Background(), "r1", 0, stalledSend) }()

	fast := []*collector{newCollector(), newCollector(), newCollector()}
	fastDone := make(chan error, len(fast))
	for _, c := range fast {
		go func() { fastDone <- hub.Watch(context.Background(), "r1", 0, c.send) }()
		<-c.got
	}
	waitFor(t, "the stalled watcher to take its first event", func() bool { return len(stalled.snapshot()) == 1 })

	start := time.Now()
	loop.Emit("r1", logEvents(100)...)
	loop.Emit("r1", loopfake.Finished(glv1.RunStatus_RUN_STATUS_PASSED, &glv1.Result{}))
	for range fast {
		if err := <-fastDone; err != nil {
			t.Fatal(err)
		}
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("fast watchers took %v: the stalled one held them up", took)
	}
	for i, c := range fast {
		checkSeqs(t, fmt.Sprintf("fast %d", i), c.snapshot(), 0, 102)
	}

	close(unblock)
	if err := <-stalledDone; err != nil {
		t.Fatalf("stalled watcher ended with %v, want nil after ResumeFrom", err)
	}
	got := stalled.snapshot()
	last := got[len(got)-1]
	rf := last.GetResumeFrom()
	if rf == nil || last.GetSeq() != 0 {
		t.Fatalf("last event = %v, want a ResumeFrom with seq 0", last)
	}
	checkSeqs(t, "stalled", got[:len(got)-1], 0, rf.GetAfterSeq())
	if rf.GetAfterSeq() >= 102 || rf.GetReason() != ReasonSlow {
		t.Fatalf("ResumeFrom = %v, want after_seq < 102 and reason %q", rf, ReasonSlow)
	}
}

func TestSlowButMovingWatcherIsThrottledNotDropped(t *testing.T) {
	hub, loop := newHub(t, Options{Window: 8, StallTimeout: 500 * time.Millisecond})
	loop.Emit("r1", logEvents(60)...)
	loop.Emit("r1", loopfake.Finished(glv1.RunStatus_RUN_STATUS_PASSED, &glv1.Result{}))
	c := newCollector()
	slow := func(ev *glv1.RunEvent) error {
		time.Sleep(3 * time.Millisecond)
		return c.send(ev)
	}
	if err := hub.Watch(context.Background(), "r1", 0, slow); err != nil {
		t.Fatal(err)
	}
	checkSeqs(t, "slow", c.snapshot(), 0, 61)
}

func TestUnknownRunPassesNotFoundThrough(t *testing.T) {
	hub, _ := newHub(t, Options{})
	c := newCollector()
	err := hub.Watch(context.Background(), "nope", 0, c.send)
	if status.Code(err) != codes.NotFound || len(c.snapshot()) != 0 {
		t.Fatalf("err = %v, events = %d; want NotFound and nothing sent", err, len(c.snapshot()))
	}
}

func TestLostUpstreamSendsResumeFromThenTheError(t *testing.T) {
	hub, loop := newHub(t, Options{})
	loop.Emit("r1", logEvents(5)...)
	c := newCollector()
	done := make(chan error, 1)
	go func() { done <- hub.Watch(context.Background(), "r1", 0, c.send) }()
	waitFor(t, "5 events", func() bool { return len(c.snapshot()) == 5 })
	loop.Kill()
	err := <-done
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("err = %v, want Unavailable", err)
	}
	got := c.snapshot()
	if rf := got[len(got)-1].GetResumeFrom(); rf == nil || rf.GetAfterSeq() != 5 || rf.GetReason() != ReasonUpstream {
		t.Fatalf("last event = %v, want ResumeFrom{after_seq: 5}", got[len(got)-1])
	}
}

func TestLastWatcherLeavingCancelsUpstream(t *testing.T) {
	hub, loop := newHub(t, Options{})
	loop.Emit("r1", loopfake.Created("r1"))
	ctx, cancel := context.WithCancel(context.Background())
	c := newCollector()
	done := make(chan error, 1)
	go func() { done <- hub.Watch(ctx, "r1", 0, c.send) }()
	<-c.got
	if got := loop.ActiveWatches(); got != 1 {
		t.Fatalf("active upstream watches = %d, want 1", got)
	}
	cancel()
	if err := <-done; status.Code(err) != codes.Canceled {
		t.Fatalf("err = %v, want Canceled", err)
	}
	waitFor(t, "the upstream stream to close", func() bool { return loop.ActiveWatches() == 0 })
	if s := hub.Stats(); s.Feeds != 0 {
		t.Fatalf("feeds = %d after the last watcher left", s.Feeds)
	}
}
