package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strconv"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

var (
	// Catch2's summary: `All tests passed (4 assertions in 3 test cases)`,
	// or `test cases: 3 | 1 passed | 2 failed` (v3 adds `| 1 skipped`);
	// doctest's `[doctest] test cases: 3 | 1 passed | 2 failed | 1 skipped`
	// (padded before 2.4). Parts that are zero may be left out.
	reCatchAll   = lazyregexp.New(`^All tests passed \(\d+ assertions? in (\d+) test cases?\)$`)
	reCatchCases = lazyregexp.New(`^test cases:\s*(\d+)((?:\s*\|\s*\d+ (?:passed|failed|skipped|failed as expected))*)\s*\|?$`)
	reCatchPart  = lazyregexp.New(`(\d+) (passed|failed as expected|failed|skipped)`)
	// A failed assertion: Catch2 `test.cc:12: FAILED:`, doctest
	// `test.cc:11: ERROR: CHECK( … ) is NOT correct!` (or FATAL ERROR);
	// MSVC-style `test.cc(12):` too.
	reCatchFailed = lazyregexp.New(`^([^\s:()]+\.(?:c|cc|cpp|cxx|c\+\+|h|hh|hpp))(?::(\d+)|\((\d+)\)): (FAILED|ERROR|FATAL ERROR):\s*(.*)$`)
)

// catchState is the Catch2 or doctest program being read: the test case
// named by the block header, its failures waiting for the summary.
type catchState struct {
	// header: Catch2 names the test case (then its sections) between two
	// rules of dashes; 1 right after the first rule, 2 on the lines after
	// the name.
	header  int
	name    string
	cur     *Test
	msg     msgBuf
	pending []Test
}

// catchRule reports whether t is a rule of '-', '=' or '.' (79 wide).
func catchRule(t []byte, c byte) bool {
	return len(t) >= 40 && t[0] == c && t[len(t)-1] == c && bytes.Count(t, []byte{c}) == len(t)
}

// catchLine reads Catch2's block headers and both frameworks' message
// lines; it returns true for a line it used.
func (p *cHarnessParser) catchLine(t []byte) bool {
	s := &p.catch
	switch {
	case catchRule(t, '-'):
		p.catchFlush()
		if s.header == 0 {
			s.header, s.name = 1, ""
		} else {
			s.header = 0
		}
		return true
	case catchRule(t, '=') || catchRule(t, '.') || catchRule(t, '~'):
		p.catchFlush()
		s.header = 0
		return true
	case s.header == 1:
		s.name, s.header = strings.TrimSpace(string(t)), 2
		return true
	case s.header == 2:
		return true // a section of the test case
	case s.cur != nil:
		s.msg.add(t)
		return true
	}
	return false
}

// doctestName reads doctest's `TEST CASE:  name`.
func (p *cHarnessParser) doctestName(t []byte) {
	p.catchFlush()
	p.catch.name = strings.TrimSpace(string(t[len("TEST CASE:"):]))
}

// catchFailed reads a failed assertion's location line.
func (p *cHarnessParser) catchFailed(ln line) bool {
	t := ln.text
	if !bytes.Contains(t, []byte(": FAILED:")) && !bytes.Contains(t, []byte("ERROR: ")) {
		return false
	}
	m := reCatchFailed.FindSubmatch(t)
	if m == nil {
		return false
	}
	s := &p.catch
	if s.name == "" {
		return false
	}
	if s.cur != nil && s.cur.Name == s.name {
		// A further failure of the same test case (CHECK goes on).
		s.msg.add(trimLeftSpace(t))
		return true
	}
	p.catchFlush()
	n := m[2]
	if len(n) == 0 {
		n = m[3]
	}
	line, _ := strconv.Atoi(string(n))
	s.cur = &Test{ID: s.name, Name: s.name, File: p.file(string(m[1])), Line: line, Offset: ln.off,
		Status: StatusFailed, kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION}
	s.msg = msgBuf{max: p.lim.MaxMessageBytes}
	if len(m[5]) > 0 {
		s.msg.add(m[5])
	}
	return true
}

// catchFlush moves the test case being read to the pending records.
func (p *cHarnessParser) catchFlush() {
	s := &p.catch
	if s.cur == nil {
		return
	}
	rec := *s.cur
	s.cur = nil
	rec.Message = s.msg.String()
	if rec.Message == "" {
		rec.Message = rec.Name + " failed"
	} else if c := crashKind(rec.Message); c == glv1.FailureKind_FAILURE_KIND_CRASH {
		rec.kind = c // `due to a fatal error condition: SIGSEGV`
	}
	if len(s.pending) < p.lim.MaxFailures {
		s.pending = append(s.pending, rec)
	}
}

// catchSummary reads the test case counts that close a program.
func (p *cHarnessParser) catchSummary(t []byte) bool {
	var c Counts
	if m := reCatchAll.FindSubmatch(t); m != nil {
		c.Passed, _ = strconv.Atoi(string(m[1]))
	} else if m := reCatchCases.FindSubmatch(t); m != nil && len(m[2]) > 0 {
		for _, part := range reCatchPart.FindAllSubmatch(m[2], -1) {
			n, _ := strconv.Atoi(string(part[1]))
			switch string(part[2]) {
			case "passed", "failed as expected":
				c.Passed += n
			case "failed":
				c.Failed += n
			case "skipped":
				c.Skipped += n
			}
		}
	} else {
		return false
	}
	p.catchFlush()
	s := &p.catch
	for _, rec := range s.pending {
		p.record(rec)
	}
	s.pending, s.name, s.header = s.pending[:0], "", 0
	p.set.addSummary(c)
	return true
}
