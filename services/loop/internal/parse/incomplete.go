package parse

import (
	"fmt"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// markIncomplete flags the counts of a test step that may miss tests. A
// log cut at the per-step cap holds only the tests printed before the cut;
// a report file (JUnit XML, JSON, go test -json teed to a file) is never
// cut, so counts from one stay complete. Tests a dying binary or runner had
// not started are unknown: the unfinished ones are counted as failed, the
// rest are not counted, and the reason says so.
func (rep *StepReport) markIncomplete(res *glv1.StepResult, best *candidate, ps *logParsers) {
	if rep.Phase != glv1.Phase_PHASE_TEST && rep.Level != glv1.Level_LEVEL_L4 {
		return
	}
	fromLog := best == nil || !best.report
	why := ""
	switch {
	case res.GetTruncated() && fromLog:
		why = fmt.Sprintf("the test log was cut at the per-step cap (%d of %d bytes stored) and no machine-readable report was collected: "+
			"only tests printed before the cut are counted (raise the verify request's limits.log_bytes_per_step, up to the executor's maximum, or make the tests print less)",
			rep.LogBytes, max(res.GetOutputBytes(), rep.LogBytes))
	case rep.Counts.Unfinished > 0:
		why = fmt.Sprintf("%d test(s) did not finish because the test binary died (panic, os.Exit, timeout): they count as failed, "+
			"and tests it had not started yet never ran and are not counted", rep.Counts.Unfinished)
	case best != nil && best.set.incomplete != "":
		why = best.set.incomplete
	case best != nil && goBinaryDied(best) != "":
		why = goBinaryDied(best)
	case ps.pytest.set.incomplete != "" && (best == nil || isPytestFormat(best.format)):
		why = ps.pytest.set.incomplete
	case killed(res) && fromLog && (best == nil || best.set.summary == nil):
		why = fmt.Sprintf("the test run was killed (%s, exit %d) before the runner printed its summary: tests it had not run yet are not counted",
			strings.ToLower(display.Enum(res.GetStatus())), res.GetExitCode())
	}
	rep.Incomplete, rep.IncompleteReason = why != "", why
}

// killed reports whether the step's process was stopped from outside or by
// a signal (timeout, OOM kill, segfault, abort).
func killed(res *glv1.StepResult) bool {
	switch res.GetStatus() {
	case glv1.StepStatus_STEP_STATUS_TIMED_OUT, glv1.StepStatus_STEP_STATUS_OOM_KILLED:
		return true
	}
	return res.GetExitCode() > 128
}

func isPytestFormat(f string) bool {
	return f == FormatPytestJUnit || f == FormatPytestSummary || f == FormatJUnit
}

// goBinaryDied explains a Go test binary that a panic or the -timeout
// alarm ended: the test reported its failure, but the tests of its package
// that had not run yet never did.
func goBinaryDied(c *candidate) string {
	if c.format != FormatGoJSON && c.format != FormatGoText {
		return ""
	}
	for _, t := range c.set.failing {
		how := ""
		switch t.kind {
		case glv1.FailureKind_FAILURE_KIND_CRASH:
			how = "panicked"
		case glv1.FailureKind_FAILURE_KIND_TIMEOUT:
			how = "timed out"
		default:
			continue
		}
		return fmt.Sprintf("the test binary of %s %s in %s: tests of that package it had not run yet never ran and are not counted", t.Suite, how, t.Name)
	}
	return ""
}
