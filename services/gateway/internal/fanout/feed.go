package fanout

import (
	"context"
	"errors"
	"io"
	"sort"
	"sync"
	"time"

	"go.uber.org/zap"
	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// batchSize bounds how many events a watcher takes from the window at once.
const batchSize = 64

// feed is one run's shared upstream stream and its window of recent events.
type feed struct {
	hub    *Hub
	runID  string
	base   uint64
	ctx    context.Context
	cancel context.CancelFunc
	refs   int // guarded by hub.mu

	mu       sync.Mutex
	ring     []entry // events with start < seq <= last, in order
	bytes    int64
	start    uint64
	last     uint64
	done     bool
	err      error
	changed  chan struct{} // closed when events arrive, a watcher is dropped or the feed ends
	progress chan struct{} // closed when a watcher advances or leaves, while append waits
	waiting  bool
	watchers map[*watcher]struct{}
}

// entry is one event in the window.
type entry struct {
	ev   *glv1.RunEvent
	size int64
	at   time.Time // when it arrived: a watcher's stall clock starts no earlier
}

// watcher is one downstream stream's position; guarded by its feed's mu
// once attached.
type watcher struct {
	cursor   uint64
	moved    time.Time
	attached bool
	dropped  bool
}

func newFeed(h *Hub, runID string, after uint64) *feed {
	ctx, cancel := context.WithCancel(h.ctx)
	return &feed{
		hub: h, runID: runID, base: after, ctx: ctx, cancel: cancel,
		start: after, last: after,
		changed: make(chan struct{}), progress: make(chan struct{}),
		watchers: map[*watcher]struct{}{},
	}
}

// run reads the upstream stream into the window until it ends.
func (f *feed) run() {
	stream, err := f.hub.src.WatchRun(f.ctx, &glv1.WatchRunRequest{RunId: f.runID, AfterSeq: f.base})
	if err != nil {
		f.finish(err)
		return
	}
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			f.finish(nil)
			return
		}
		if err != nil {
			f.finish(err)
			return
		}
		if ev := resp.GetEvent(); ev != nil && !f.append(ev) {
			f.finish(f.ctx.Err())
			return
		}
	}
}

// finish marks the feed ended and wakes every watcher.
func (f *feed) finish(err error) {
	f.mu.Lock()
	f.done, f.err = true, err
	f.broadcastLocked()
	f.mu.Unlock()
	f.hub.forget(f)
	if err != nil && f.ctx.Err() == nil {
		f.hub.log.Warn("upstream watch ended with an error", zap.String("run_id", f.runID), zap.Error(err))
	}
}

// append adds ev to the window, first making room as the package doc
// describes. It returns false when the feed was cancelled while waiting.
func (f *feed) append(ev *glv1.RunEvent) bool {
	size := int64(proto.Size(ev))
	f.mu.Lock()
	defer f.mu.Unlock()
	if ev.GetSeq() <= f.last {
		return true // a duplicate: the window already has it
	}
	for f.fullLocked(size) {
		wait, ok := f.makeRoomLocked()
		if !ok {
			continue
		}
		f.waiting = true
		progress := f.progress
		f.mu.Unlock()
		timer := time.NewTimer(wait)
		select {
		case <-progress:
		case <-timer.C:
		case <-f.ctx.Done():
		}
		timer.Stop()
		f.mu.Lock()
		f.waiting = false
		if f.ctx.Err() != nil {
			return false
		}
	}
	f.ring = append(f.ring, entry{ev: ev, size: size, at: time.Now()})
	f.bytes += size
	f.last = ev.GetSeq()
	f.broadcastLocked()
	return true
}

func (f *feed) fullLocked(size int64) bool {
	o := f.hub.opts
	return len(f.ring) > 0 && (len(f.ring) >= o.Window || f.bytes+size > o.WindowBytes)
}

// makeRoomLocked evicts the oldest event if no attached watcher still needs
// it, dropping watchers that stalled for StallTimeout. Otherwise it returns
// how long to wait for progress (ok == true).
//
// A watcher that needs the oldest event has it as its next one (eviction
// never passes an attached watcher), so it has been stalled since the later
// of its last delivery and that event's arrival: an idle watcher that was
// simply up to date is not counted as stalled.
func (f *feed) makeRoomLocked() (wait time.Duration, ok bool) {
	oldest := f.ring[0].ev.GetSeq()
	now := time.Now()
	stall := f.hub.opts.StallTimeout
	var soonest time.Duration = -1
	for w := range f.watchers {
		if w.dropped || w.cursor >= oldest {
			continue
		}
		since := w.moved
		if f.ring[0].at.After(since) {
			since = f.ring[0].at
		}
		if left := stall - now.Sub(since); left > 0 {
			if soonest < 0 || left < soonest {
				soonest = left
			}
			continue
		}
		w.dropped = true
		f.hub.log.Warn("dropping a stalled watcher", zap.String("run_id", f.runID),
			zap.Uint64("after_seq", w.cursor), zap.Duration("stalled", now.Sub(since)))
		f.broadcastLocked()
	}
	if soonest >= 0 {
		return soonest, true
	}
	f.bytes -= f.ring[0].size
	f.ring[0] = entry{}
	f.ring = f.ring[1:]
	f.start = oldest
	return 0, false
}

// broadcastLocked wakes every watcher waiting for news.
func (f *feed) broadcastLocked() {
	close(f.changed)
	f.changed = make(chan struct{})
}

// state is what a watcher should do next.
type state int

const (
	stateEvents  state = iota // deliver the returned events
	stateWait                 // nothing new: wait on the returned channel
	stateDone                 // the feed ended and the watcher has everything
	stateDropped              // the watcher was too slow and must resume later
	stateBehind               // the window starts after the watcher's cursor
)

// next returns what the watcher should do: events after its cursor (at most
// batchSize), a channel to wait on, or a terminal state. A watcher that is
// not attached yet attaches here once the window covers its cursor.
func (f *feed) next(w *watcher) ([]*glv1.RunEvent, <-chan struct{}, state) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if w.dropped {
		return nil, nil, stateDropped
	}
	if w.cursor < f.start {
		if w.attached {
			// Eviction never passes an attached watcher without dropping it;
			// stay safe if that ever changes.
			return nil, nil, stateDropped
		}
		return nil, nil, stateBehind
	}
	if !w.attached {
		w.attached, w.moved = true, time.Now()
		f.watchers[w] = struct{}{}
	}
	i := sort.Search(len(f.ring), func(i int) bool { return f.ring[i].ev.GetSeq() > w.cursor })
	if i < len(f.ring) {
		end := min(len(f.ring), i+batchSize)
		evs := make([]*glv1.RunEvent, 0, end-i)
		for _, e := range f.ring[i:end] {
			evs = append(evs, e.ev)
		}
		return evs, nil, stateEvents
	}
	if f.done {
		return nil, nil, stateDone
	}
	return nil, f.changed, stateWait
}

// advance records that w delivered seq.
func (f *feed) advance(w *watcher, seq uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	w.cursor, w.moved = seq, time.Now()
	f.signalProgressLocked()
}

// leave detaches w; it may have been holding back the window.
func (f *feed) leave(w *watcher) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.watchers, w)
	f.signalProgressLocked()
}

func (f *feed) signalProgressLocked() {
	if f.waiting {
		close(f.progress)
		f.progress = make(chan struct{})
		f.waiting = false
	}
}

// covers reports whether the window (or the end of the feed) reaches back
// to cursor, so a catching-up watcher can switch to it.
func (f *feed) covers(cursor uint64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return cursor >= f.start
}

// result returns how the feed ended.
func (f *feed) result() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}
