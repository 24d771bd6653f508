// Package loopfake is an in-memory stand-in for the loop's RunService,
// for gateway tests that need control the real loop does not give: runs
// and events injected at will, counted WatchRun calls, recorded metadata,
// a Verify that blocks until cancelled. It behaves like the loop where the
// gateway can tell: WatchRun replays after after_seq, follows live and ends
// after RunFinished; unknown runs are NotFound.
package loopfake
