// Package loopsvc wires the loop service — the orchestrator that owns the
// run store (bbolt) and the blob store and drives verify and fix runs — for
// both the greenlight-loop binary and the embedded mode of the CLI.
//
// It serves greenlight.v1.RunService and greenlight.v1.BlobService. The
// handlers are thin: they validate, call internal/engine (the state
// machine) or internal/store, and stream a run's events from
// internal/events. Domain errors become gRPC codes in one table
// (errors.go): bad input is InvalidArgument with a message saying what to
// change, an unknown run is NotFound, a loop shutting down is Unavailable.
//
// # RPC semantics
//
//   - Verify creates a run (persisted, PENDING, then RUNNING) and streams its
//     events until RunFinished. The stream is a subscription that replays
//     the store, so it shows exactly the stored events in seq order. The
//     stream's context is the run's: a client that goes away cancels the run
//     (it finishes CANCELED and the executor destroys the sandbox). To follow
//     a run without owning it, use WatchRun.
//   - A Verify run verifies its immutable snapshot once. When it fails, it
//     emits VerifyFailedMaxRetries with a stop memo (also in
//     Result.stop_memo) whose fix instructions — failed command, error
//     output, changed files, attempt number — are for the caller: in a
//     Verify workflow the caller is the implementer who retries. Re-running
//     the same bytes would not fix code, and timeouts or infrastructure
//     errors are never retried automatically.
//   - Fix is the retry loop with a patch provider as the implementer. Each
//     failed verification with rounds left emits VerifyFailedRetry with the
//     fix instructions and a PatchRequest goes to the provider (for CLIENT:
//     a PatchRequested event; the caller answers with a PatchReply naming
//     the attempt, and closing its side of the stream means it gives up).
//     The round limit is FixOptions.max_rounds, else
//     VerifyOptions.max_attempts, else 3; VerificationDone.attempt is 0 for
//     the unpatched snapshot and N for round N's patch.
//   - WatchRun replays stored events after after_seq and follows the run
//     live; any number of watchers, none of which can slow the run (a
//     lagging watcher catches up from the store). Unknown run: NotFound.
//   - GetRun returns a run with its result and patch outcomes; ListRuns
//     pages newest first, filtered by status, without results.
//   - DiscoverWorkspace checks the snapshot and returns discovery's
//     capabilities (discovery's own error codes are passed on).
//
// # Start-up and retention
//
// New marks runs a killed process left PENDING or RUNNING as INTERRUPTED
// (their events kept, a final RunFinished appended) before anything is
// served, and prunes finished runs outside the retention policy (older than
// Config.RetentionDays, beyond the newest Config.RetentionRuns) at start-up
// and every Config.PruneEvery, deleting the blobs only they referenced.
package loopsvc
