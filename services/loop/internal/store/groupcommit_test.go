package store

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// ack is what one AppendEventAsync callback received.
type ack struct {
	run  string
	data string
	seq  uint64
	err  error
	// stored says whether a fresh read transaction saw the event when its
	// callback ran.
	stored bool
}

// ackLog records callbacks in the order they were called.
type ackLog struct {
	mu   sync.Mutex
	acks []ack
	wg   sync.WaitGroup
}

// queue appends ev asynchronously and records its acknowledgement, checking
// in the callback that the event is already readable.
func (l *ackLog) queue(t *testing.T, ctx context.Context, s *Store, run string, ev *glv1.RunEvent) error {
	t.Helper()
	l.wg.Add(1)
	data := ev.GetLogChunk().GetData()
	err := s.AppendEventAsync(ctx, run, ev, func(seq uint64, err error) {
		a := ack{run: run, data: data, seq: seq, err: err}
		if err == nil {
			got, rerr := s.Events(context.Background(), run, seq-1, 1)
			a.stored = rerr == nil && len(got) == 1 && got[0].GetSeq() == seq && got[0].GetLogChunk().GetData() == data
		}
		l.mu.Lock()
		l.acks = append(l.acks, a)
		l.mu.Unlock()
		l.wg.Done()
	})
	if err != nil {
		l.wg.Done()
	}
	return err
}

// count returns how many callbacks have run.
func (l *ackLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.acks)
}

// holdWriter takes bbolt's write lock, so that the store's writer blocks
// in its next commit until the returned release is called.
func holdWriter(t *testing.T, s *Store) (release func()) {
	t.Helper()
	tx, err := s.db.Begin(true)
	if err != nil {
		t.Fatalf("begin: %v", err)
	}
	var once sync.Once
	release = func() { once.Do(func() { _ = tx.Rollback() }) }
	t.Cleanup(release)
	return release
}

func TestAsyncAppendsShareCommitsAndAckInQueueOrder(t *testing.T) {
	s, clock := newTestStore(t)
	ctx := context.Background()
	runs := []string{"r1", "r2", "r3"}
	for _, id := range runs {
		mustCreate(t, s, id, running, clock.t)
	}
	const n = 600 // below maxGroup: all but the first group's share one commit
	release := holdWriter(t, s)
	var log ackLog
	for i := range n {
		run := runs[i%len(runs)]
		if err := log.queue(t, ctx, s, run, logEvent(fmt.Sprintf("%s-%d", run, i/len(runs)+1))); err != nil {
			t.Fatalf("AppendEventAsync %d: %v", i, err)
		}
	}
	if got := log.count(); got != 0 {
		t.Fatalf("%d appends acknowledged while their transaction could not commit", got)
	}
	release()
	log.wg.Wait()

	// Callbacks come in queue order; each run's seqs are 1, 2, 3, ... in
	// the order its events were queued, and each event was readable when
	// its callback ran.
	for i, a := range log.acks {
		run := runs[i%len(runs)]
		k := i/len(runs) + 1
		if a.err != nil || a.run != run || a.seq != uint64(k) || a.data != fmt.Sprintf("%s-%d", run, k) || !a.stored {
			t.Fatalf("callback %d = %+v, want %s seq %d stored", i, a, run, k)
		}
	}
	st := s.WriterStats()
	// The writer may have taken some appends before it blocked; everything
	// queued behind them went into one more transaction.
	if st.Appends != n || st.Commits == 0 || st.Commits > 2 || st.Failed != 0 {
		t.Errorf("WriterStats = %+v, want %d appends in at most 2 commits", st, n)
	}
	for _, id := range runs {
		if got := allEvents(t, s, id); len(got) != n/len(runs) {
			t.Errorf("run %s stores %d events, want %d", id, len(got), n/len(runs))
		}
	}
}

// breakEventLog replaces a run's event bucket by a plain key, so that every
// transaction appending to the run fails with a bbolt write error.
func breakEventLog(t *testing.T, s *Store, runID string) {
	t.Helper()
	if err := s.db.Update(func(tx *bolt.Tx) error {
		events := open(tx).events
		if err := events.DeleteBucket([]byte(runID)); err != nil {
			return err
		}
		return events.Put([]byte(runID), []byte("not a bucket"))
	}); err != nil {
		t.Fatal(err)
	}
}

func TestFailedCommitFailsExactlyItsAppends(t *testing.T) {
	s, clock := newTestStore(t)
	ctx := context.Background()
	mustCreate(t, s, "good", running, clock.t)
	mustCreate(t, s, "bad", running, clock.t)
	mustAppend(t, s, "good", logEvent("before"))
	breakEventLog(t, s, "bad")

	// The writer is idle (the append above was acknowledged), so the test
	// may run groups of its choosing through commit itself.
	type want struct {
		seq uint64
		err error
	}
	tests := []struct {
		name  string
		group []*appendReq
		want  []want
	}{
		{
			name:  "a write error fails the whole group",
			group: []*appendReq{{runID: "good", ev: logEvent("g1")}, {runID: "bad", ev: logEvent("b1")}, {runID: "good", ev: logEvent("g2")}},
			want:  []want{{0, bolterrors.ErrIncompatibleValue}, {0, bolterrors.ErrIncompatibleValue}, {0, bolterrors.ErrIncompatibleValue}},
		},
		{
			name:  "the next group reuses no seq and leaves no gap",
			group: []*appendReq{{runID: "good", ev: logEvent("g3")}, {runID: "r_nope", ev: logEvent("x")}, {runID: "good", ev: logEvent("g4")}},
			want:  []want{{2, nil}, {0, ErrNotFound}, {3, nil}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []want
			for _, req := range tt.group {
				req.done = func(seq uint64, err error) { got = append(got, want{seq, err}) }
			}
			s.commit(tt.group)
			s.acknowledge(tt.group)
			for i, w := range tt.want {
				if got[i].seq != w.seq || !errors.Is(got[i].err, w.err) || (w.err == nil) != (got[i].err == nil) {
					t.Errorf("append %d: seq %d err %v; want seq %d err %v", i, got[i].seq, got[i].err, w.seq, w.err)
				}
				if ev := tt.group[i].ev; ev.GetSeq() != w.seq {
					t.Errorf("append %d: event keeps seq %d, want %d", i, ev.GetSeq(), w.seq)
				}
			}
		})
	}
	var data []string
	for i, ev := range allEvents(t, s, "good") {
		if ev.GetSeq() != uint64(i+1) {
			t.Errorf("event %d has seq %d", i, ev.GetSeq())
		}
		data = append(data, ev.GetLogChunk().GetData())
	}
	if got := strings.Join(data, " "); got != "before g3 g4" {
		t.Errorf("good run stores %q, want \"before g3 g4\"", got)
	}
	if st := s.WriterStats(); st.Failed != 3 {
		t.Errorf("WriterStats.Failed = %d, want 3", st.Failed)
	}

	// Through the queue, with concurrent appenders: whatever shares a
	// transaction with an append to the broken run fails with it, and
	// everything else is stored, with contiguous seqs.
	var log ackLog
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 100 {
				run := "good"
				if w == 0 && i%10 == 0 {
					run = "bad"
				}
				if err := log.queue(t, ctx, s, run, logEvent(fmt.Sprintf("w%d-%d", w, i))); err != nil {
					t.Errorf("AppendEventAsync: %v", err)
				}
			}
		})
	}
	wg.Wait()
	log.wg.Wait()
	stored := map[string]uint64{}
	for _, ev := range allEvents(t, s, "good") {
		stored[ev.GetLogChunk().GetData()] = ev.GetSeq()
	}
	failed := 0
	for _, a := range log.acks {
		switch {
		case a.run == "bad" && !errors.Is(a.err, bolterrors.ErrIncompatibleValue):
			t.Errorf("append to the broken run: %+v", a)
		case a.err != nil:
			failed++
			if _, ok := stored[a.data]; ok || a.seq != 0 {
				t.Errorf("failed append %q (seq %d) is stored", a.data, a.seq)
			}
		case !a.stored || stored[a.data] != a.seq:
			t.Errorf("acknowledged append %q at seq %d is stored at %d", a.data, a.seq, stored[a.data])
		}
	}
	if len(stored) != 3+len(log.acks)-failed {
		t.Errorf("good run stores %d events, want %d", len(stored), 3+len(log.acks)-failed)
	}
	if st := s.WriterStats(); st.Failed != uint64(3+failed) {
		t.Errorf("WriterStats.Failed = %d, want %d", st.Failed, 3+failed)
	}
}

func TestQueueIsBoundedInBytes(t *testing.T) {
	s, clock := newTestStore(t)
	mustCreate(t, s, "r1", running, clock.t)
	release := holdWriter(t, s)
	// An ended context: appends are queued while there is room, and fail
	// at once instead of waiting when there is none.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	const size = 512 << 10
	big := strings.Repeat("x", size)
	var log ackLog
	accepted := 0
	for {
		err := log.queue(t, ctx, s, "r1", logEvent(big))
		if errors.Is(err, context.Canceled) {
			break
		}
		if err != nil {
			t.Fatalf("AppendEventAsync: %v", err)
		}
		accepted++
		if accepted > 2*queueBytes/size {
			t.Fatalf("queued %d events of %d bytes; the queue holds %d bytes", accepted, size, queueBytes)
		}
	}
	if accepted*size > queueBytes || accepted < queueBytes/size-1 {
		t.Errorf("queued %d events of %d bytes before refusing; want the %d bytes of the queue filled", accepted, size, queueBytes)
	}
	release()
	log.wg.Wait()
	if len(log.acks) != accepted {
		t.Fatalf("%d callbacks for %d queued appends", len(log.acks), accepted)
	}
	for i, a := range log.acks {
		if a.err != nil || a.seq != uint64(i+1) || !a.stored {
			t.Fatalf("callback %d = seq %d err %v stored %v", i, a.seq, a.err, a.stored)
		}
	}
	// The queue is free again.
	if _, err := s.AppendEvent(ctx, "r1", logEvent(big)); err != nil {
		t.Errorf("append after the queue drained: %v", err)
	}
}

func TestCloseCommitsQueuedAppends(t *testing.T) {
	s, clock := newTestStore(t)
	mustCreate(t, s, "r1", running, clock.t)
	ctx := context.Background()
	release := holdWriter(t, s)
	var log ackLog
	const n = 100
	for i := range n {
		if err := log.queue(t, ctx, s, "r1", logEvent(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	release()
	if err := <-closed; err != nil {
		t.Fatalf("Close: %v", err)
	}
	if len(log.acks) != n {
		t.Fatalf("Close returned with %d of %d queued appends acknowledged", len(log.acks), n)
	}
	for i, a := range log.acks {
		if a.err != nil || a.seq != uint64(i+1) {
			t.Errorf("callback %d = seq %d err %v", i, a.seq, a.err)
		}
	}
	called := false
	err := s.AppendEventAsync(ctx, "r1", logEvent("late"), func(uint64, error) { called = true })
	if !errors.Is(err, ErrClosed) || called {
		t.Errorf("append after Close: err %v, callback called %v; want ErrClosed and no callback", err, called)
	}
}

// waitWaiters waits until the budget lists n waiting acquires.
func waitWaiters(b *byteBudget, n int) {
	for {
		b.mu.Lock()
		got := b.waiters.Len()
		b.mu.Unlock()
		if got == n {
			return
		}
		runtime.Gosched()
	}
}

func TestByteBudgetServesInArrivalOrder(t *testing.T) {
	ctx := context.Background()
	b := newByteBudget(10)
	if err := b.acquire(ctx, 8); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := b.acquire(ctx, 6); err != nil {
			t.Error(err)
		}
	})
	waitWaiters(b, 1)
	wg.Go(func() {
		if err := b.acquire(ctx, 2); err != nil {
			t.Error(err)
		}
	})
	// The small request would fit in the 2 free bytes but arrived after
	// the large one: it waits behind it.
	waitWaiters(b, 2)
	// An ended context gives up its place without taking anything.
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if err := b.acquire(canceled, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("acquire with an ended context = %v, want context.Canceled", err)
	}
	b.mu.Lock()
	free, waiting := b.free, b.waiters.Len()
	b.mu.Unlock()
	if free != 2 || waiting != 2 {
		t.Errorf("before release: %d free, %d waiting; want 2 free and both requests waiting", free, waiting)
	}
	b.release(8)
	wg.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.free != 2 || b.waiters.Len() != 0 {
		t.Errorf("after release: %d free, %d waiting; want 2 free, none waiting", b.free, b.waiters.Len())
	}
}
