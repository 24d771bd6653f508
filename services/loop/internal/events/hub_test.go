package events

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

// newStore opens a real run store in a temporary directory.
func newStore(t testing.TB) *store.Store {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "runs.db"), store.Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// newRun creates a RUNNING run.
func newRun(t testing.TB, s *store.Store, id string) {
	t.Helper()
	run := &glv1.Run{Id: id, Status: glv1.RunStatus_RUN_STATUS_RUNNING}
	if err := s.CreateRun(context.Background(), run); err != nil {
		t.Fatalf("CreateRun: %v", err)
	}
}

// emit persists then publishes one log event, as the loop does.
func emit(t testing.TB, h *Hub, runID, text string) *glv1.RunEvent {
	t.Helper()
	ev := &glv1.RunEvent{Kind: &glv1.RunEvent_LogChunk{LogChunk: &glv1.LogChunk{Data: text}}}
	if _, err := h.Append(context.Background(), runID, ev); err != nil {
		t.Errorf("Append: %v", err)
		return nil
	}
	return ev
}

// finish persists then publishes RunFinished.
func finish(t testing.TB, s *store.Store, h *Hub, runID string) {
	t.Helper()
	ev, err := s.Finish(context.Background(), runID, &glv1.RunFinished{Status: glv1.RunStatus_RUN_STATUS_PASSED})
	if err != nil {
		t.Fatalf("Finish: %v", err)
	}
	h.Publish(runID, ev)
}

// drain reads a subscription to its end and returns the seqs it delivered.
func drain(ctx context.Context, sub *Subscription) ([]uint64, error) {
	var seqs []uint64
	for {
		ev, err := sub.Next(ctx)
		if errors.Is(err, io.EOF) {
			return seqs, nil
		}
		if err != nil {
			return seqs, err
		}
		seqs = append(seqs, ev.GetSeq())
	}
}

// checkSeqs fails unless seqs is exactly from..to.
func checkSeqs(t testing.TB, who string, seqs []uint64, from, to uint64) {
	t.Helper()
	if uint64(len(seqs)) != to-from+1 {
		t.Errorf("%s: got %d events (%v…), want %d..%d", who, len(seqs), head(seqs), from, to)
		return
	}
	for i, seq := range seqs {
		if seq != from+uint64(i) {
			t.Errorf("%s: position %d has seq %d, want %d (every event once, in order)", who, i, seq, from+uint64(i))
			return
		}
	}
}

// head shortens a seq list for messages.
func head(seqs []uint64) []uint64 { return seqs[:min(len(seqs), 10)] }

// testContext is a context that ends with the test's deadline.
func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	if d, ok := t.Deadline(); ok {
		ctx, cancel = context.WithDeadline(context.Background(), d.Add(-5*time.Second))
	}
	t.Cleanup(cancel)
	return ctx
}

func TestSubscribeReplaysThenFollowsLive(t *testing.T) {
	tests := []struct {
		name  string
		after uint64
	}{
		{"from the start", 0},
		{"from the middle", 6},
		{"from the last stored", 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testContext(t)
			s := newStore(t)
			h := NewHub(s, Options{PageSize: 3})
			newRun(t, s, "r1")
			for i := range 10 {
				emit(t, h, "r1", fmt.Sprint(i))
			}
			sub, err := h.Subscribe(ctx, "r1", tt.after)
			if err != nil {
				t.Fatalf("Subscribe: %v", err)
			}
			defer sub.Close()
			go func() {
				for i := range 10 {
					emit(t, h, "r1", fmt.Sprint(10+i))
				}
				finish(t, s, h, "r1")
			}()
			seqs, err := drain(ctx, sub)
			if err != nil {
				t.Fatalf("drain: %v", err)
			}
			checkSeqs(t, "watcher", seqs, tt.after+1, 21)
			if n := h.Watchers("r1"); n != 0 {
				t.Errorf("%d watchers left after the run finished", n)
			}
		})
	}
}

func TestSubscribeFinishedRun(t *testing.T) {
	ctx := testContext(t)
	s := newStore(t)
	h := NewHub(s, Options{})
	newRun(t, s, "r1")
	for i := range 5 {
		emit(t, h, "r1", fmt.Sprint(i))
	}
	finish(t, s, h, "r1")
	for _, after := range []uint64{0, 3, 5, 6} {
		sub, err := h.Subscribe(ctx, "r1", after)
		if err != nil {
			t.Fatalf("Subscribe(after %d): %v", after, err)
		}
		seqs, err := drain(ctx, sub)
		if err != nil {
			t.Fatalf("drain(after %d): %v", after, err)
		}
		if after < 6 {
			checkSeqs(t, fmt.Sprintf("after %d", after), seqs, after+1, 6)
		} else if len(seqs) != 0 {
			t.Errorf("after the RunFinished seq: got %v, want an immediately ended stream", seqs)
		}
		sub.Close()
	}
	if n := h.Watchers("r1"); n != 0 {
		t.Errorf("%d watchers left", n)
	}
}

func TestSubscribeRejects(t *testing.T) {
	ctx := testContext(t)
	s := newStore(t)
	h := NewHub(s, Options{})
	newRun(t, s, "r1")
	emit(t, h, "r1", "x")
	tests := []struct {
		name    string
		run     string
		after   uint64
		wantErr error
	}{
		{"unknown run", "r_nope", 0, store.ErrNotFound},
		{"after the last event", "r1", 2, ErrInvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := h.Subscribe(ctx, tt.run, tt.after); !errors.Is(err, tt.wantErr) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if n := h.Watchers(tt.run); n != 0 {
				t.Errorf("failed Subscribe left %d watchers", n)
			}
		})
	}
}

func TestNextHonoursContextAndClose(t *testing.T) {
	s := newStore(t)
	h := NewHub(s, Options{})
	newRun(t, s, "r1")
	sub, err := h.Subscribe(context.Background(), "r1", 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := sub.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Next with canceled ctx: err = %v, want context.Canceled", err)
	}
	sub.Close()
	sub.Close()
	if n := h.Watchers("r1"); n != 0 {
		t.Errorf("%d watchers after Close", n)
	}
	emit(t, h, "r1", "after close") // must not block or panic
}

func TestManyWatchersWithConcurrentPublishers(t *testing.T) {
	ctx := testContext(t)
	s := newStore(t)
	h := NewHub(s, Options{Buffer: 32, PageSize: 16})
	newRun(t, s, "r1")
	const watchers, publishers, perPublisher = 100, 4, 100
	const total = publishers*perPublisher + 1 // + RunFinished

	type result struct {
		from uint64
		seqs []uint64
		err  error
	}
	results := make([]result, watchers)
	var subscribed, watching sync.WaitGroup
	subscribe := func(i int, after uint64) {
		sub, err := h.Subscribe(ctx, "r1", after)
		subscribed.Done()
		if err != nil {
			results[i].err = err
			return
		}
		defer sub.Close()
		results[i].from = after + 1
		results[i].seqs, results[i].err = drain(ctx, sub)
	}
	// Half attach before anything happens.
	for i := range watchers / 2 {
		subscribed.Add(1)
		watching.Go(func() { subscribe(i, 0) })
	}
	subscribed.Wait()
	var published atomic.Int64
	var pubs sync.WaitGroup
	for p := range publishers {
		pubs.Go(func() {
			for i := range perPublisher {
				emit(t, h, "r1", fmt.Sprintf("p%d-%d", p, i))
				published.Add(1)
			}
		})
	}
	// The other half attach while events flow, from the start or from
	// wherever the log is at that moment.
	for i := watchers / 2; i < watchers; i++ {
		subscribed.Add(1)
		var after uint64
		if i%2 == 1 {
			run, err := s.GetRun(ctx, "r1")
			if err != nil {
				t.Fatal(err)
			}
			after = run.GetLastSeq()
		}
		watching.Go(func() { subscribe(i, after) })
	}
	subscribed.Wait()
	pubs.Wait()
	finish(t, s, h, "r1")
	watching.Wait()
	if published.Load() != publishers*perPublisher {
		t.Fatalf("published %d events", published.Load())
	}
	for i, r := range results {
		if r.err != nil {
			t.Errorf("watcher %d: %v", i, r.err)
			continue
		}
		checkSeqs(t, fmt.Sprintf("watcher %d", i), r.seqs, r.from, total)
	}
}

// signalLog is the real store, reporting each replay that found nothing new
// (after which a watcher follows the live stream).
type signalLog struct {
	*store.Store
	caughtUp chan struct{}
}

func (l signalLog) Events(ctx context.Context, runID string, after uint64, limit int) ([]*glv1.RunEvent, error) {
	evs, err := l.Store.Events(ctx, runID, after, limit)
	if err == nil && len(evs) == 0 {
		select {
		case l.caughtUp <- struct{}{}:
		default:
		}
	}
	return evs, err
}

func TestSlowWatcherNeverBlocksPublisherAndCatchesUp(t *testing.T) {
	ctx := testContext(t)
	s := newStore(t)
	log := signalLog{Store: s, caughtUp: make(chan struct{}, 1)}
	h := NewHub(log, Options{Buffer: 4, PageSize: 50})
	newRun(t, s, "r1")
	slow, err := h.Subscribe(ctx, "r1", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	// The slow watcher reads one event live, then stops reading.
	first := make(chan error, 1)
	go func() {
		ev, err := slow.Next(ctx)
		if err == nil && ev.GetSeq() != 1 {
			err = fmt.Errorf("first event has seq %d", ev.GetSeq())
		}
		first <- err
	}()
	<-log.caughtUp // it has replayed the (empty) log and waits live

	const n = 1000
	returned := 0
	for i := range n {
		emit(t, h, "r1", fmt.Sprint(i))
		returned++ // reached only if Publish returned
	}
	finish(t, s, h, "r1")
	returned++
	if returned != n+1 {
		t.Fatalf("Publish returned %d times, want %d", returned, n+1)
	}
	if err := <-first; err != nil {
		t.Fatalf("slow watcher's first Next: %v", err)
	}
	// Everything after the first event went past a 4-event buffer that
	// nobody read, and the final RunFinished was dropped too: only the
	// catch-up from the store can deliver the rest.
	seqs, err := drain(ctx, slow)
	if err != nil {
		t.Fatalf("drain: %v", err)
	}
	checkSeqs(t, "slow watcher", seqs, 2, n+1)
	if slow.CatchUps() == 0 {
		t.Errorf("slow watcher never caught up from the store, yet received everything?")
	}
	if slow.LastSeq() != n+1 {
		t.Errorf("LastSeq = %d, want %d", slow.LastSeq(), n+1)
	}
}

func TestOutOfOrderPublishIsAGap(t *testing.T) {
	ctx := testContext(t)
	s := newStore(t)
	log := signalLog{Store: s, caughtUp: make(chan struct{}, 1)}
	h := NewHub(log, Options{})
	newRun(t, s, "r1")
	sub, err := h.Subscribe(ctx, "r1", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	got := make(chan []uint64, 1)
	go func() {
		seqs, err := drain(ctx, sub)
		if err != nil {
			t.Errorf("drain: %v", err)
		}
		got <- seqs
	}()
	<-log.caughtUp
	// Two goroutines appended 1 and 2 but published in the other order.
	one := &glv1.RunEvent{Kind: &glv1.RunEvent_LogChunk{LogChunk: &glv1.LogChunk{Data: "1"}}}
	two := &glv1.RunEvent{Kind: &glv1.RunEvent_LogChunk{LogChunk: &glv1.LogChunk{Data: "2"}}}
	for _, ev := range []*glv1.RunEvent{one, two} {
		if _, err := s.AppendEvent(ctx, "r1", ev); err != nil {
			t.Fatal(err)
		}
	}
	h.Publish("r1", two)
	h.Publish("r1", one)
	finish(t, s, h, "r1")
	checkSeqs(t, "watcher", <-got, 1, 3)
	if sub.CatchUps() != 1 {
		t.Errorf("CatchUps = %d, want 1 (the gap before seq 2)", sub.CatchUps())
	}
}

func TestAppendAsyncPublishesOnlyStoredEventsInOrder(t *testing.T) {
	ctx := testContext(t)
	s, err := store.Open(filepath.Join(t.TempDir(), "runs.db"), store.Options{MaxRunEvents: 5})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	h := NewHub(s, Options{Buffer: 100})
	newRun(t, s, "r1")
	// Never read: its buffer shows exactly what was published.
	sub, err := h.Subscribe(ctx, "r1", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	type result struct {
		seq uint64
		err error
	}
	var (
		mu      sync.Mutex
		results []result
		acked   sync.WaitGroup
	)
	for i := range 10 {
		acked.Add(1)
		ev := &glv1.RunEvent{Kind: &glv1.RunEvent_LogChunk{LogChunk: &glv1.LogChunk{Data: fmt.Sprint(i)}}}
		if err := h.AppendAsync(ctx, "r1", ev, func(seq uint64, err error) {
			mu.Lock()
			results = append(results, result{seq, err})
			mu.Unlock()
			acked.Done()
		}); err != nil {
			t.Fatalf("AppendAsync %d: %v", i, err)
		}
	}
	acked.Wait()
	// The first five fit the run's cap, the rest are refused.
	for i, r := range results {
		wantSeq, wantErr := uint64(i+1), error(nil)
		if i >= 5 {
			wantSeq, wantErr = 0, store.ErrEventCap
		}
		if r.seq != wantSeq || !errors.Is(r.err, wantErr) || (wantErr == nil) != (r.err == nil) {
			t.Errorf("append %d: seq %d err %v; want seq %d err %v", i, r.seq, r.err, wantSeq, wantErr)
		}
	}
	if got := len(sub.live); got != 5 {
		t.Fatalf("%d events published, want the 5 stored ones", got)
	}
	for i := range 5 {
		if ev := <-sub.live; ev.GetSeq() != uint64(i+1) || ev.GetLogChunk().GetData() != fmt.Sprint(i) {
			t.Errorf("publication %d = seq %d %q, want seq %d %q", i, ev.GetSeq(), ev.GetLogChunk().GetData(), i+1, fmt.Sprint(i))
		}
	}
}

func TestAppendAsyncBurstReachesWatchersInOrderAfterStoring(t *testing.T) {
	ctx := testContext(t)
	s := newStore(t)
	const n = 2000
	h := NewHub(s, Options{Buffer: n + 1})
	newRun(t, s, "r1")
	sub, err := h.Subscribe(ctx, "r1", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	got := make(chan error, 1)
	go func() {
		// Every event the watcher receives is already in the store, and
		// they come in seq order without a catch-up.
		var last uint64
		for {
			ev, err := sub.Next(ctx)
			if errors.Is(err, io.EOF) {
				if last != n+1 || sub.CatchUps() != 0 {
					err = fmt.Errorf("ended after seq %d with %d catch-ups, want seq %d and none", last, sub.CatchUps(), n+1)
				} else {
					err = nil
				}
				got <- err
				return
			}
			if err != nil {
				got <- err
				return
			}
			stored, err := s.Events(ctx, "r1", ev.GetSeq()-1, 1)
			if err != nil || len(stored) != 1 || stored[0].GetSeq() != ev.GetSeq() {
				got <- fmt.Errorf("seq %d delivered before it was stored (%v)", ev.GetSeq(), err)
				return
			}
			last = ev.GetSeq()
		}
	}()
	var acked sync.WaitGroup
	var next atomic.Uint64
	for i := range n {
		acked.Add(1)
		ev := &glv1.RunEvent{Kind: &glv1.RunEvent_LogChunk{LogChunk: &glv1.LogChunk{Data: fmt.Sprint(i)}}}
		if err := h.AppendAsync(ctx, "r1", ev, func(seq uint64, err error) {
			if want := next.Add(1); err != nil || seq != want {
				t.Errorf("callback %d: seq %d err %v", want, seq, err)
			}
			acked.Done()
		}); err != nil {
			t.Fatalf("AppendAsync %d: %v", i, err)
		}
	}
	acked.Wait()
	fin := &glv1.RunEvent{Kind: &glv1.RunEvent_RunFinished{RunFinished: &glv1.RunFinished{Status: glv1.RunStatus_RUN_STATUS_PASSED}}}
	if seq, err := h.Append(ctx, "r1", fin); err != nil || seq != n+1 {
		t.Fatalf("Append(RunFinished) = %d, %v; want %d", seq, err, n+1)
	}
	if err := <-got; err != nil {
		t.Error(err)
	}
}
