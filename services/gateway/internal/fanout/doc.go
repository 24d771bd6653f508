// Package fanout multiplexes many watchers of one run onto one upstream
// WatchRun stream, so a hundred IDE plugins following the same run cost
// the loop one stream, not a hundred.
//
// # Model
//
// Each watched run has a feed: one goroutine reading the upstream stream
// into a window (a bounded ring of the most recent events, by count and by
// bytes). Watchers do not get pushed to; each one pulls from the window
// after its own cursor (the last seq it delivered) at its own pace and
// sleeps on a channel that the feed closes when something new arrives. A
// watcher stuck in a slow Send therefore never delays another watcher
// directly.
//
// # Joining
//
// The first watcher of a run starts the feed at its after_seq. A later
// watcher whose after_seq is inside the window replays from the window and
// continues live. One whose after_seq is older than the window catches up on
// a short-lived upstream stream of its own (the loop replays from its store)
// and joins the shared feed as soon as the window covers its cursor.
//
// # Slow watchers
//
// The window may only drop its oldest event once every attached watcher has
// delivered it. When the window is full and some watcher still needs the
// oldest event, the feed waits for it to make progress, but only while that
// watcher keeps moving: a watcher that made no progress for StallTimeout is
// dropped. A dropped watcher receives a ResumeFrom{after_seq} event (seq 0:
// it is not a stored event) and its stream ends OK; it re-attaches with
// WatchRun(after_seq) and catches up from the loop's store. So a stalled
// client delays the others at most StallTimeout once, and a client that is
// merely slower than a fast replay is throttled rather than dropped.
//
// # Endings
//
// The feed ends when the upstream stream ends: after RunFinished (every
// watcher drains the window and ends OK) or with an error. Errors about the
// request itself (NotFound, InvalidArgument, ...) pass through unchanged; a
// lost upstream (Unavailable, Internal, ...) sends ResumeFrom at the
// watcher's cursor and then the error, so clients know where to resume.
// When the last watcher leaves, the upstream stream is cancelled.
package fanout
