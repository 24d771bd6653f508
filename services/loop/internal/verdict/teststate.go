package verdict

import "github.com/greenlight-dev/greenlight/services/loop/internal/parse"

// TestState is a test's coarse state when two verifications of one pinned
// pipeline are compared: by the regression and progress rules here, and
// by the transitions (FAIL_TO_PASS, PASS_TO_FAIL, ...) in package
// transition.
type TestState int

const (
	// Absent: the verification did not list the test.
	Absent TestState = iota
	// Passing: it passed (a flaky test passed on re-run).
	Passing
	// Failing: it failed or errored (any status but passed or skipped).
	Failing
	// Skipped: it was skipped.
	Skipped
)

// StateOf is the state of a test a verification listed (ok) or not.
func StateOf(o parse.Outcome, ok bool) TestState {
	switch {
	case !ok:
		return Absent
	case o.Passed():
		return Passing
	case o.Status == parse.StatusSkipped:
		return Skipped
	}
	return Failing
}
