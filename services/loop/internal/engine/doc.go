// Package engine is loop's state machine: it turns a Verify or Fix request
// into a durable run and drives it to a terminal status.
//
// # States
//
//	Verify:  CREATED → DISCOVER → EXECUTE → PARSE → SCORE → FINALIZE
//	Fix:     CREATED → [BASELINE] → VERIFY
//	                 → (REQUEST → PROPOSE → GUARD → APPLY → VERIFY → DECIDE)*
//	                 → FINALIZE
//
// One verification (DISCOVER…SCORE) asks discovery for the pipeline of the
// selected tiers, orders its steps tier by tier (tier0, then tier1, then
// tier2, each tier's steps in discovery's phase order) and hands them to the
// executor in one Execute call, so the fast path of one sandbox per
// verification is kept: the executor stops at the first failing step, which
// is exactly the seeds' rule "commands run sequentially per tier, the run
// stops at the first failed command". The verification's time budget
// (VerifyOptions.time_budget, default 600 s) is passed as the executor's run
// budget; when it runs out, the executor ends the running step and skips the
// rest, and the engine reports every tier that did not run to completion
// with a TierSkipped event naming the budget.
//
// # Judging
//
// The engine orchestrates; it does not judge. What a step's status becomes
// (a missing tool, an unreachable index, a report that contradicts the
// exit code), the verdict, the score it may carry and whether a patch is
// kept are package verdict's rules: the engine gathers what they read (the
// executor's results, the parsed reports, the snapshot's tree) and calls
// them (analyze.go, round.go).
//
// # Retry semantics
//
// A Verify run verifies one immutable snapshot once: running the same bytes
// again cannot fix code, and timeouts or infrastructure errors are never
// retried automatically. On failure it emits VerifyFailedMaxRetries with the
// stop memo at once; the fix instructions in the memo (failed command, error
// output, changed files, attempt number) are for the caller, who is the
// implementer in the seeds' retry loop and verifies again with its next
// change. A Fix run is the retry loop with greenlight in the supervisor's
// seat: every failed verification that has rounds left emits
// VerifyFailedRetry with the fix instructions and hands them to the patch
// provider as a PatchRequest; when the rounds (FixOptions.max_rounds, else
// VerifyOptions.max_attempts, else 3) are spent it emits
// VerifyFailedMaxRetries and stops with the memo.
//
// # Flaky tests
//
// With VerifyOptions.rerun_failed, a test step that FAILED with failing
// tests the parser named gets one more Execute call on the same snapshot
// that runs only those tests (parse.RerunCommand), followed by the steps
// the executor skipped after the failure. Tests that pass on the re-run are
// marked flaky (parse.MarkFlaky): kept in the result with their failures,
// counted in counts.flaky, and a step whose only failures were flaky
// passes. The re-run is an optional step of the result ("<step>:rerun",
// run-event index past the pipeline's), in the manifest, the artifacts and
// the summary. See rerun.go.
//
// # Hidden tests
//
// With FixOptions.hidden_tests (see hidden.go) every fix verification
// that decides something (the baseline, each candidate) is a grading
// verification: the caller's hidden tests laid over the snapshot. The
// patch request of a round is built from a second verification of the
// current snapshot without them (fixer.see), so the model learns of the
// hidden tests only how many fail. Green needs every hidden target.
//
// # Events
//
// Every event goes through the events.Hub: persisted in the run store
// first (which assigns its seq), then published to live watchers. A run
// waits for its RunCreated and RunFinished to be durable (Hub.Append) and
// queues the events in between (Hub.AppendAsync, run.emit), which the
// store commits in queue order. The RPC
// streams (Verify, Fix, WatchRun) are subscriptions that replay from the
// store, so a client sees exactly what is stored, in seq order.
//
// # Cancellation
//
// A run's context is its starting RPC's context merged with the engine's:
// the Verify or Fix caller going away cancels the run, which then finishes
// CANCELED (the executor's stream is canceled with it, which destroys the
// sandbox). Closing the engine cancels every run and waits for them.
package engine
