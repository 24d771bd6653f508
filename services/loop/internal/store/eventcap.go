package store

import (
	"fmt"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	bolt "go.etcd.io/bbolt"
)

// Defaults of the per-run event storage cap (Options.MaxRunEventBytes and
// MaxRunEvents). A verification's steps are each capped at a few MiB of live
// log by the engine; these bound a whole run, fix runs with many rounds
// included, so that one run cannot fill the disk.
const (
	DefaultMaxRunEventBytes = 64 << 20
	DefaultMaxRunEvents     = 100_000
)

// eventCap is the per-run cap on stored events. Only droppable events (live
// log chunks) are refused past it; the events a run needs to end
// (StepFinished, RunFinished, ...) are always stored, so a run always
// finishes and watchers always see its end.
type eventCap struct {
	maxBytes, maxEvents int64
	// usage is what each unfinished run stores, loaded on the run's first
	// append after Open. Only the writer goroutine touches it.
	usage map[string]runUsage
}

// runUsage is what one run's event log holds. full is set once a droppable
// event was refused: the run stays past its cap, so that a smaller chunk
// queued behind a refused one cannot leave a hole in the stored output.
type runUsage struct {
	bytes, events int64
	full          bool
}

func newEventCap(opts Options) *eventCap {
	c := &eventCap{maxBytes: opts.MaxRunEventBytes, maxEvents: opts.MaxRunEvents, usage: map[string]runUsage{}}
	if c.maxBytes == 0 {
		c.maxBytes = DefaultMaxRunEventBytes
	}
	if c.maxEvents == 0 {
		c.maxEvents = DefaultMaxRunEvents
	}
	return c
}

// droppable says whether ev may be left out of a run's log: live output,
// which the step's stored log blob holds in full anyway.
func droppable(ev *glv1.RunEvent) bool { return ev.GetLogChunk() != nil }

// track accounts for an event of n stored bytes about to go into the run's
// log, or refuses a droppable one that would take the run past the cap
// (ErrEventCap). A run's usage is counted from its log on its first
// droppable event after Open; until then other events need no counting.
func (g *appendGroup) track(log *bolt.Bucket, runID string, ev *glv1.RunEvent, n int) error {
	u, known := g.usage[runID]
	if !known {
		u, known = g.caps.usage[runID]
	}
	if !known && !droppable(ev) {
		return nil
	}
	if !known {
		u = countLog(log)
	}
	if err := g.caps.admit(u, runID, ev, n); err != nil {
		u.full = true
		g.usage[runID] = u
		return err
	}
	g.usage[runID] = runUsage{bytes: u.bytes + int64(n), events: u.events + 1, full: u.full}
	return nil
}

// countLog sums what a run's event log stores.
func countLog(log *bolt.Bucket) runUsage {
	var u runUsage
	_ = log.ForEach(func(_, v []byte) error {
		u.bytes += int64(len(v))
		u.events++
		return nil
	})
	return u
}

// admit refuses a droppable event of n bytes that would take a run with
// usage u past the cap, or that follows one refused before, with
// ErrEventCap; other events always pass.
func (c *eventCap) admit(u runUsage, runID string, ev *glv1.RunEvent, n int) error {
	if !droppable(ev) {
		return nil
	}
	overBytes := c.maxBytes > 0 && u.bytes+int64(n) > c.maxBytes
	overCount := c.maxEvents > 0 && u.events+1 > c.maxEvents
	if overBytes || overCount || u.full {
		return fmt.Errorf("run %s already stores %d events (%d bytes); the per-run cap is %d events / %d bytes (the loop's run event cap settings): live log chunk not stored: %w",
			runID, u.events, u.bytes, c.maxEvents, c.maxBytes, ErrEventCap)
	}
	return nil
}

// commit folds a committed group's usage in; finished runs are forgotten.
func (c *eventCap) commit(group map[string]runUsage, finished map[string]bool) {
	for id, u := range group {
		if finished[id] {
			delete(c.usage, id)
			continue
		}
		c.usage[id] = u
	}
}
