// Package verdict is where a reader finds why a run is PASS, FAIL or
// ERROR: every rule that turns what ran into step statuses, the verdict,
// the score it may carry, and whether a patch is kept. The engine gathers
// the inputs (the executor's results, the parsed reports, the snapshot's
// tree, whether the package index was unreachable) and calls it; it does
// not judge.
//
// Step rules (rules.go, in the order they run; each may change a step's
// status from what its exit code said and says why in StepResult.reason):
//
//	OnExit, on the exit status and log tail, before parsing:
//	  tool-unavailable  the step's own program is not in its image: SKIPPED if advisory, else ERROR (toolmissing.go)
//	  install-env       an install could not reach or trust its index: ERROR of the environment (installenv.go)
//	  old-toolchain     cargo needs a newer rustc than the image's: ERROR (toolchain.go)
//	  missing-deps      index unreachable, tests stopped at a third-party import, an uninstalled plugin or uninstalled package metadata: ERROR (missingdeps.go)
//	  unpinned-check    index unreachable, a CI-required lint ran the image's version: ERROR (missingdeps.go)
//	OnReport, on the parsed log and report files, before any re-run:
//	  tool-absent       the log says a build tool was not found: ERROR (agree.go; StepResult.rule)
//	  disk-full         the output says no space left on device, no test failed otherwise: ERROR naming the mount (diskfull.go; StepResult.rule)
//	  needs-network     a step without network failed reaching it, no test failed otherwise: ERROR (network.go; StepResult.rule)
//	  report-disagrees  exit 0 but the report counts failures: FAILED (agree.go; StepResult.rule)
//
// Flaky tests: a failed test step is re-run by the engine; a test that
// passes on re-run is flaky and its step counts as OK, except a test
// NeverFlaky names (in a file the change touched, or a FAIL_TO_PASS
// target) (flaky.go).
//
// Run rules (run.go, first that applies wins): required-step-failed
// (FAIL), infrastructure (ERROR), required-step-not-run (ERROR),
// counts-incomplete (ERROR), nothing-ran (ERROR), no-l3 (FAIL), pass
// (PASS). Optional (advisory) steps never decide. Score (run.go) caps a
// FAIL's score below the pass threshold and drops an ERROR's.
//
// The score itself (3 build + 4 tests + 2 lint + 1 no critical errors)
// and the level (L1-L4) are computed in package score; the output
// contract around the verdict is built in package report.
//
// Patch rules (patch.go, for the fix loop, in order): regression against
// the current verification, regression against the baseline (both from
// Regressions in compare.go: a required step or test that passed now
// fails, is skipped or disappeared, a failing test vanished, or more
// checks fail by FailingChecks in failing.go), then no-progress
// (Progressed in progress.go). A fail-fast round's probe rolls a patch
// back earlier with still-failing (ProbeStillFails). A fix run is green
// (green.go) when its hidden targets pass, then its targets are met
// (resolution FULL), else when the verdict is PASS at the threshold. A test's state in these comparisons
// (StateOf, teststate.go) and whether a step passed (StepPassed) are the
// ones package transition uses to list test transitions (FAIL_TO_PASS,
// PASS_TO_FAIL, ...) and grade a fix run's targets SWE-bench style.
package verdict
