package report

import (
	"fmt"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
)

// Verdict decides the output contract's status:
//
//   - FAIL when a required (non-optional) step ran and did not finish OK
//     (failed, timed out, OOM-killed, canceled) — unless its only failures
//     were flaky tests that passed on re-run — or when a required step was
//     skipped after an earlier required step failed;
//   - else ERROR when infrastructure failed (infraError, or a required step
//     could not run at all: STEP_STATUS_ERROR), or nothing ran;
//   - else ERROR when a required test step finished OK but its counts are
//     incomplete (its log was cut at the per-step cap and no report file
//     was parsed): its exit code says the tests that ran passed, but what
//     the cut hid was never seen, so neither PASS nor FAIL can be vouched
//     for;
//   - else FAIL when no step at L3 or above really ran OK (lint alone never
//     passes a change);
//   - else PASS.
//
// A code failure is conclusive even when infrastructure also failed, so
// FAIL wins over ERROR. The summary says why in one line.
func Verdict(steps []score.StepOutcome, infraError string) (glv1.Verdict, string) {
	var failed, skippedAfter, infra, incomplete []string
	hard := false
	ranAny := false
	for _, o := range steps {
		st := o.Status()
		if o.Ran() {
			ranAny = true
		}
		if o.Optional() {
			continue
		}
		switch {
		case st == glv1.StepStatus_STEP_STATUS_ERROR:
			name := o.Name()
			if why := o.Result.GetReason(); why != "" {
				name += " (" + why + ")"
			}
			infra = append(infra, name)
		case st == glv1.StepStatus_STEP_STATUS_SKIPPED || st == glv1.StepStatus_STEP_STATUS_UNSPECIFIED:
			if len(failed) > 0 {
				skippedAfter = append(skippedAfter, o.Name())
			}
		case !o.EffectiveOK() && o.Result.GetRule() != "":
			failed = append(failed, fmt.Sprintf("%s (%s, exit %d, rule %s: %s)", o.Name(), statusName(st), o.Result.GetExitCode(),
				o.Result.GetRule(), o.Result.GetReason()))
		case !o.EffectiveOK():
			failed = append(failed, fmt.Sprintf("%s (%s, exit %d)", o.Name(), statusName(st), o.Result.GetExitCode()))
		case o.Report != nil && o.Report.Incomplete:
			incomplete = append(incomplete, fmt.Sprintf("%s (%s)", o.Name(), o.Report.IncompleteReason))
		case o.Level() >= glv1.Level_LEVEL_L3:
			hard = true
		}
	}
	switch {
	case len(failed) > 0:
		s := "FAIL: " + strings.Join(failed, ", ")
		if len(skippedAfter) > 0 {
			s += "; skipped after the failure: " + strings.Join(skippedAfter, ", ")
		}
		return glv1.Verdict_VERDICT_FAIL, s
	case infraError != "":
		return glv1.Verdict_VERDICT_ERROR, "ERROR: " + infraError
	case len(infra) > 0:
		return glv1.Verdict_VERDICT_ERROR, "ERROR: could not run " + strings.Join(infra, ", ")
	case len(incomplete) > 0:
		return glv1.Verdict_VERDICT_ERROR, "ERROR: test counts incomplete, cannot pass: " + strings.Join(incomplete, ", ")
	case !ranAny:
		return glv1.Verdict_VERDICT_ERROR, "ERROR: no step ran"
	case !hard:
		return glv1.Verdict_VERDICT_FAIL, "FAIL: no required step at L3 or above (build, startup, tests) ran OK"
	}
	return glv1.Verdict_VERDICT_PASS, "PASS: every required step that ran finished OK, including at least one at L3+"
}

func statusName(s glv1.StepStatus) string {
	return strings.ToLower(strings.TrimPrefix(s.String(), "STEP_STATUS_"))
}
