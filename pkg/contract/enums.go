package contract

import (
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Status words of the contract's top-level status.
const (
	StatusPass    = "PASS"
	StatusFail    = "FAIL"
	StatusError   = "ERROR"
	StatusPending = "PENDING"
)

// short strips a proto enum value's type prefix: STEP_STATUS_OK → OK.
// UNSPECIFIED stays UNSPECIFIED, so a client never sees an empty string.
func short(name, prefix string) string {
	return strings.TrimPrefix(name, prefix)
}

// Verdict is a verdict's contract word; unspecified is ERROR (a result
// without a verdict concluded nothing, never a PASS).
func Verdict(v glv1.Verdict) string {
	switch v {
	case glv1.Verdict_VERDICT_PASS:
		return StatusPass
	case glv1.Verdict_VERDICT_FAIL:
		return StatusFail
	default:
		return StatusError
	}
}

// Level is L1…L4, or NONE when no level was reached.
func Level(l glv1.Level) string {
	if l == glv1.Level_LEVEL_UNSPECIFIED {
		return "NONE"
	}
	return short(l.String(), "LEVEL_")
}

// RunStatus is a run's lifecycle word: PENDING, RUNNING, PASSED, FAILED,
// ERROR, CANCELED or INTERRUPTED.
func RunStatus(s glv1.RunStatus) string { return short(s.String(), "RUN_STATUS_") }

// RunKind is VERIFY or FIX.
func RunKind(k glv1.RunKind) string { return short(k.String(), "RUN_KIND_") }

// StepStatus is OK, FAILED, TIMED_OUT, OOM_KILLED, CANCELED, SKIPPED or ERROR.
func StepStatus(s glv1.StepStatus) string { return short(s.String(), "STEP_STATUS_") }

// Phase is INSTALL, BUILD, TYPECHECK, LINT, TEST, SMOKE or SECURITY.
func Phase(p glv1.Phase) string { return short(p.String(), "PHASE_") }

// Tier is 0, 1 or 2 as TIER_0…TIER_2.
func Tier(t glv1.Tier) string { return t.String() }

// TestStatus is PASSED, FAILED, SKIPPED or ERROR (UNSPECIFIED: did not run).
func TestStatus(s glv1.TestStatus) string { return short(s.String(), "TEST_STATUS_") }

// FailureKind is COMPILE, TEST_ASSERTION, TEST_ERROR, LINT, TYPECHECK,
// TIMEOUT, OOM, CRASH or INSTALL.
func FailureKind(k glv1.FailureKind) string { return short(k.String(), "FAILURE_KIND_") }

// ScoreSource is DETERMINISTIC or MODEL.
func ScoreSource(s glv1.ScoreSource) string { return short(s.String(), "SCORE_SOURCE_") }

// TransitionKind is FAIL_TO_PASS, PASS_TO_PASS, PASS_TO_FAIL, FAIL_TO_FAIL,
// NEW or DISAPPEARED.
func TransitionKind(k glv1.TransitionKind) string { return short(k.String(), "TRANSITION_KIND_") }

// Resolution is FULL, PARTIAL or NO (UNSPECIFIED: nothing to grade).
func Resolution(r glv1.Resolution) string { return short(r.String(), "RESOLUTION_") }

// PatchFormat is UNIFIED or ENVELOPE.
func PatchFormat(f glv1.PatchFormat) string { return short(f.String(), "PATCH_FORMAT_") }
