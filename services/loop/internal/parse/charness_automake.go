package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"strconv"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// FormatAutomake is automake's parallel test harness (make check of
// autotools projects): a `PASS: prog` / `FAIL: prog` line per test
// program (per test under its TAP driver) and the `# TOTAL: N` summary.
const FormatAutomake = "automake"

var (
	// `FAIL: check_test`, `PASS: tests/x.test 3 - parses` (TAP driver).
	reAutomakeResult = lazyregexp.New(`^(PASS|FAIL|XFAIL|XPASS|SKIP|ERROR): (\S.*)$`)
	// The summary's figures: `# TOTAL: 2`, `# PASS:  0`, …, `# ERROR: 0`.
	reAutomakeFigure = lazyregexp.New(`^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR):\s+(\d+)$`)
)

// automakeState reads the harness's output. Its results wait for the
// `Testsuite summary for …` block, which counts them; the copy of the
// figures at the top of test-suite.log (printed under VERBOSE=1) is not a
// second summary.
type automakeState struct {
	set *testSet
	// pending are the results since the last summary, by name once.
	pending []Test
	names   map[string]bool
	// summary is true from `Testsuite summary for` to its last figure.
	summary bool
	figs    map[string]int
}

// automakeResult reads a program's (or a TAP test's) result line.
func (p *cHarnessParser) automakeResult(ln line) bool {
	m := reAutomakeResult.FindSubmatch(ln.text)
	if m == nil {
		return false
	}
	s := &p.am
	name := string(m[2])
	if s.names == nil {
		s.names = map[string]bool{}
	}
	// Under VERBOSE=1 each failed program's log section starts with its
	// result line again.
	if s.names[name] || len(s.pending) >= p.lim.MaxFailures+p.lim.MaxTests {
		return true
	}
	s.names[name] = true
	rec := Test{ID: name, Name: name, Offset: ln.off}
	switch string(m[1]) {
	case "PASS", "XFAIL":
		rec.Status = StatusPassed
	case "SKIP":
		rec.Status = StatusSkipped
	case "ERROR":
		rec.Status, rec.Message = StatusError, name+": ERROR (hard error of the test program)"
	default:
		rec.Status, rec.Message = StatusFailed, name+": "+string(m[1])
		rec.kind = glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION
	}
	s.pending = append(s.pending, rec)
	return true
}

// automakeFigure reads a figure of the summary; the last one (ERROR)
// closes it.
func (p *cHarnessParser) automakeFigure(t []byte) {
	s := &p.am
	if !s.summary {
		return
	}
	m := reAutomakeFigure.FindSubmatch(t)
	if m == nil {
		return
	}
	n, _ := strconv.Atoi(string(m[2]))
	key := string(m[1])
	s.figs[key] = n
	if key != "ERROR" {
		return
	}
	f := s.figs
	c := Counts{Passed: f["PASS"] + f["XFAIL"], Failed: f["FAIL"] + f["XPASS"], Skipped: f["SKIP"], Errors: f["ERROR"]}
	if c.Total() != f["TOTAL"] {
		c.Passed = max(0, f["TOTAL"]-c.Failed-c.Skipped-c.Errors)
	}
	for _, rec := range s.pending {
		s.set.note(rec.ID, rec.Status)
		s.set.keep(rec)
	}
	s.pending, s.names, s.summary = s.pending[:0], nil, false
	s.set.addSummary(c)
}

// automakeSummary reads `Testsuite summary for PACKAGE VERSION`.
func (p *cHarnessParser) automakeSummary() {
	p.am.summary, p.am.figs = true, map[string]int{}
}

// automakeCandidate is the harness's result: what the maintainers read
// in make check, with the failed checks the programs printed (their
// logs under VERBOSE=1) as failures ahead of the programs'.
func (p *cHarnessParser) automakeCandidate() candidate {
	c := candidate{format: FormatAutomake, rank: 3, set: p.am.set}
	for _, t := range p.set.failing {
		c.extra = append(c.extra, Failure{File: t.File, Line: t.Line, Kind: kindOf(t), Message: t.Message, Test: t.ID, Offset: t.Offset})
	}
	return c
}
