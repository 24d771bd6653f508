package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"strconv"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

var (
	// greatest's failed test: `FAIL mul_table: 13 != mul(3, 4)
	// (test.c:12)`, with `(4 ticks, 0.000 sec)` after it under -v.
	reGreatestFail = lazyregexp.New(`^FAIL (\S+): (.*) \(([^\s():]+):(\d+)\)(?: \(\d+ ticks, [\d.]+ sec\))?$`)
	// Under -v, passed and skipped tests: `PASS add: (1 ticks, 0.000 sec)`.
	reGreatestOther = lazyregexp.New(`^(PASS|SKIP) (\S+): ?(.*?)(?: \(\d+ ticks, [\d.]+ sec\))?$`)
	// A suite's count (1.2+ `2 tests - 1 passed, 1 failed, 0 skipped`,
	// 1.0 `2 tests - 1 pass, 1 fail, 0 skipped`, then the time).
	reGreatestSuite = lazyregexp.New(`^(\d+) tests? - (\d+) pass(?:ed)?, (\d+) fail(?:ed)?, (\d+) skipped(?: \(.*\))?$`)
	// The program's report: `Total: 4 tests (64 ticks, 0.000 sec), 3
	// assertions` then `Pass: 1, fail: 2, skip: 1.`.
	reGreatestTotal = lazyregexp.New(`^Total: (\d+) tests?(?: \(.*\))?(?:, \d+ assertions?)?$`)
	reGreatestPass  = lazyregexp.New(`^Pass: (\d+), fail: (\d+), skip: (\d+)\.$`)
)

// greatestState is the greatest program being read. Its records wait for
// a suite count or the report to confirm the format; its suites' counts
// are replaced by the report's when the program prints one.
type greatestState struct {
	suite   string
	got     msgBuf
	pending []Test
	// suites sums the suite counts since the last report; total is true
	// between `Total:` and `Pass:`.
	suites *Counts
	total  bool
}

// greatestSuite reads `* Suite name:`.
func (p *cHarnessParser) greatestSuite(t []byte) {
	name := strings.TrimSuffix(strings.TrimSpace(string(t[len("* Suite "):])), ":")
	if len(name) > 0 && len(name) < 200 {
		p.great.suite = name
	}
	p.great.got.reset()
}

// greatestGot keeps the `Expected: …` / `Got: …` lines an ASSERT_EQ_FMT
// prints before its FAIL line.
func (p *cHarnessParser) greatestGot(t []byte) {
	s := &p.great
	tr := trimLeftSpace(t)
	if hasPrefix(tr, "Expected: ") {
		s.got.max = p.lim.MaxMessageBytes
		s.got.reset()
		s.got.add(tr)
		return
	}
	if hasPrefix(tr, "Got: ") && len(s.got.b) > 0 {
		s.got.add(tr)
	}
}

// greatestResult reads a FAIL, PASS or SKIP line.
func (p *cHarnessParser) greatestResult(ln line) {
	t := ln.text
	s := &p.great
	if hasPrefix(t, "FAIL ") {
		m := reGreatestFail.FindSubmatch(t)
		if m == nil {
			return
		}
		file := p.file(string(m[3]))
		line, _ := strconv.Atoi(string(m[4]))
		name := string(m[1])
		msg := string(m[2])
		if len(s.got.b) > 0 {
			msg += "\n" + s.got.String()
		}
		s.got.reset()
		p.greatestPending(Test{ID: testID(s.suite, name), Suite: s.suite, Name: name, File: file, Line: line,
			Message: msg, Offset: ln.off, Status: StatusFailed, kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION})
		return
	}
	m := reGreatestOther.FindSubmatch(t)
	if m == nil {
		return
	}
	s.got.reset()
	name := string(m[2])
	rec := Test{ID: testID(s.suite, name), Suite: s.suite, Name: name, Offset: ln.off, Status: StatusPassed}
	if string(m[1]) == "SKIP" {
		rec.Status, rec.Message = StatusSkipped, string(m[3])
	}
	p.greatestPending(rec)
}

func (p *cHarnessParser) greatestPending(t Test) {
	if len(p.great.pending) < p.lim.MaxFailures+p.lim.MaxTests {
		p.great.pending = append(p.great.pending, t)
	}
}

// greatestConfirm keeps the records a count line confirmed.
func (p *cHarnessParser) greatestConfirm() {
	for _, rec := range p.great.pending {
		p.record(rec)
	}
	p.great.pending = p.great.pending[:0]
}

// greatestSuiteCount reads a suite's count line.
func (p *cHarnessParser) greatestSuiteCount(t []byte) bool {
	if len(t) > 200 || !hasSuffix(t, " skipped") && !hasSuffix(t, ")") {
		return false
	}
	m := reGreatestSuite.FindSubmatch(t)
	if m == nil {
		return false
	}
	n := func(i int) int { v, _ := strconv.Atoi(string(m[i])); return v }
	s := &p.great
	if s.suites == nil {
		s.suites = &Counts{}
	}
	*s.suites = s.suites.Add(Counts{Passed: n(2), Failed: n(3), Skipped: n(4)})
	p.greatestConfirm()
	return true
}

// greatestTotal reads `Total: N tests …`, which `Pass: …` follows.
func (p *cHarnessParser) greatestTotal(t []byte) {
	p.great.total = reGreatestTotal.Match(t)
}

// greatestPass reads the report's counts, which replace the suites'.
func (p *cHarnessParser) greatestPass(t []byte) {
	s := &p.great
	if !s.total {
		return
	}
	s.total = false
	m := reGreatestPass.FindSubmatch(t)
	if m == nil {
		return
	}
	n := func(i int) int { v, _ := strconv.Atoi(string(m[i])); return v }
	p.greatestConfirm()
	s.suites, s.suite = nil, ""
	p.set.addSummary(Counts{Passed: n(1), Failed: n(2), Skipped: n(3)})
}

// greatestEnd commits the suites of a program that printed no report.
func (p *cHarnessParser) greatestEnd() {
	s := &p.great
	if s.suites != nil {
		p.set.addSummary(*s.suites)
		s.suites = nil
	}
}

// trimLeftSpace drops leading blanks.
func trimLeftSpace(t []byte) []byte {
	for len(t) > 0 && (t[0] == ' ' || t[0] == '\t') {
		t = t[1:]
	}
	return t
}
