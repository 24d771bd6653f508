package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strconv"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

var (
	// Check's summary of a runner: `50%: Checks: 4, Failures: 1, Errors: 1`
	// (a "check" is one test function run).
	reCheckSum = lazyregexp.New(`^\d+%: Checks: (\d+), Failures: (\d+), Errors: (\d+)$`)
	// One test's result, printed after the summary: failures and errors
	// always, passes under CK_VERBOSE:
	// `check_test.c:14:F:core:test_mul:0: Assertion 'x == 13' failed: …`,
	// `check_test.c:23:E:edge:test_crash:0: (after this point) Received signal 11 (Segmentation fault)`,
	// `check_test.c:9:P:core:test_add:0: Passed`. The fields are the
	// location, the result, the test case, the test and the loop iteration.
	reCheckResult = lazyregexp.New(`^([^\s:]+):(\d+):([PFE]):([^:]*):([^:]+):(\d+): ?(.*)$`)
)

// checkState: Check prints its result lines after the summary they are
// counted in, so a result line is read only once a summary was seen.
type checkState struct {
	seen bool
}

// checkSummary reads a runner's summary.
func (p *cHarnessParser) checkSummary(t []byte) bool {
	if !bytes.Contains(t, []byte("%: Checks: ")) {
		return false
	}
	m := reCheckSum.FindSubmatch(t)
	if m == nil {
		return false
	}
	n := func(i int) int { v, _ := strconv.Atoi(string(m[i])); return v }
	checks, failures, errs := n(1), n(2), n(3)
	p.chk.seen = true
	p.set.addSummary(Counts{Passed: max(0, checks-failures-errs), Failed: failures, Errors: errs})
	return true
}

// checkResult reads one test's result line.
func (p *cHarnessParser) checkResult(ln line) bool {
	t := ln.text
	if !p.chk.seen || !bytes.Contains(t, []byte(":F:")) && !bytes.Contains(t, []byte(":E:")) && !bytes.Contains(t, []byte(":P:")) {
		return false
	}
	m := reCheckResult.FindSubmatch(t)
	if m == nil {
		return false
	}
	tcase, name := string(m[4]), string(m[5])
	rec := Test{ID: testID(tcase, name), Suite: tcase, Name: name, Offset: ln.off}
	switch m[3][0] {
	case 'P':
		rec.Status = StatusPassed
	case 'F':
		rec.Status, rec.kind = StatusFailed, glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION
	default:
		// An error: a signal, an early exit or a timeout.
		rec.Status, rec.kind = StatusError, crashKind(string(m[7]))
	}
	if rec.Status.failing() {
		rec.File = p.file(string(m[1]))
		rec.Line, _ = strconv.Atoi(string(m[2]))
		rec.Message = string(m[7])
	}
	p.record(rec)
	return true
}
