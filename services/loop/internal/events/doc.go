// Package events is loop's live fan-out of run events to watchers within one
// process.
//
// The run store is the source of truth; the Hub only shortens the path from
// a just-persisted event to the watchers that wait for it. A subscription
// first replays stored events after the requested seq, then follows live
// publications, and ends after the run's RunFinished event.
//
// # No gaps, no duplicates
//
// Subscribe registers the watcher for live events before it reads the store,
// so every event is either already stored when the replay reads (it was
// appended before Publish, and Publish happened before or after the
// registration) or arrives live afterwards. Append and AppendAsync publish
// an event only once the store's transaction holding it is durable, from
// the store's writer goroutine in commit order, so live events of a run
// arrive in seq order even when several goroutines append to it. The watcher tracks the last seq
// it delivered, drops anything at or below it (an event both replayed and
// received live) and treats a live event that skips ahead as a gap.
//
// # Slow watchers
//
// Publish never blocks: each watcher has a bounded buffer and an event that
// does not fit is dropped for that watcher, which is marked as lagging. A
// lagging watcher — or one that sees a gap, e.g. because Publish was called
// out of order — transparently catches up from the store (which
// has every event, since events are persisted before they are published) and
// then resumes live delivery. Its memory stays bounded by its buffer plus one
// store page, and the run never waits for it. The hub therefore never emits
// ResumeFrom; that event is left to a proxy (the gateway) that loses its
// upstream stream.
package events
