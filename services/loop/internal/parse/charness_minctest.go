package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strconv"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

var (
	// minctest's failed check: `smoke.c:684 error ` (lok) or
	// `test.c:15 (12 != 13)` (lequal, lfequal, lsequal). Up to 0.2 it
	// follows the test's padded name on the same line when it is the
	// test's first: `\tmul           test.c:15 (12 != 13)`.
	reMinctestFail = lazyregexp.New(`^(?:\t(\S.*?)\s+)?([^\s:()]+\.(?:c|cc|cpp|cxx|h|hh|hpp)):(\d+) (error|\(.* != .*\))\s*$`)
	// 0.3 opens a test with `\tname:`.
	reMinctestName = lazyregexp.New(`^\t(\S.*?):$`)
	// A test's closing tally: 0.3 `\t -- pass: 3 fail: 0 time: 0ms`,
	// 0.2 `\tname          pass: 3   fail: 0      0ms` or, after a
	// failure, `pass: 1   fail: 2      0ms`.
	reMinctestTally = lazyregexp.New(`^(?:\t.*?)?\s*(?:-- )?pass:\s*\d+\s+fail:\s*\d+\s+(?:time: )?-?\d+ms$`)
	// The program's summary counts checks, not tests: `ALL TESTS PASSED
	// (4930/4930)`, `SOME TESTS FAILED (13/16)` (passed/total).
	reMinctestSum = lazyregexp.New(`^(ALL TESTS PASSED|SOME TESTS FAILED) \((\d+)/(\d+)\)$`)
)

// minctestState is the minctest program being read: its failed checks wait
// for its summary.
type minctestState struct {
	test    string
	pending []Test
}

// minctestLine reads a minctest test's name, tally or failed check.
func (p *cHarnessParser) minctestLine(ln line) bool {
	t := ln.text
	s := &p.minc
	failLike := hasSuffix(t, "error ") || hasSuffix(t, "error") || hasSuffix(t, ")") && bytes.Contains(t, []byte(" != "))
	if failLike {
		m := reMinctestFail.FindSubmatch(t)
		if m == nil {
			return false
		}
		if len(m[1]) > 0 {
			s.test = string(m[1])
		}
		p.minctestFail(m, ln.off)
		return true
	}
	if t[0] == '\t' {
		if m := reMinctestName.FindSubmatch(t); m != nil {
			s.test = string(m[1])
			return true
		}
	}
	if (t[0] == '\t' || t[0] == 'p') && hasSuffix(t, "ms") && reMinctestTally.Match(t) {
		s.test = ""
		return true
	}
	return false
}

func (p *cHarnessParser) minctestFail(m [][]byte, off int64) {
	s := &p.minc
	if len(s.pending) >= p.lim.MaxFailures {
		return
	}
	file := p.file(string(m[2]))
	line, _ := strconv.Atoi(string(m[3]))
	name := s.test
	if name == "" {
		name = "line " + string(m[3])
	}
	msg := string(m[4])
	if msg == "error" {
		msg = "check failed"
	} else {
		msg = msg[1 : len(msg)-1]
	}
	s.pending = append(s.pending, Test{ID: testID(file, name), Suite: file, Name: name, File: file, Line: line,
		Message: name + ": " + msg, Offset: off, Status: StatusFailed, kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION})
}

// minctestSummary closes a program: its counts are checks, as minctest
// prints them (the maintainers read the same figure).
func (p *cHarnessParser) minctestSummary(t []byte) {
	m := reMinctestSum.FindSubmatch(t)
	if m == nil {
		return
	}
	s := &p.minc
	passed, _ := strconv.Atoi(string(m[2]))
	total, _ := strconv.Atoi(string(m[3]))
	for _, rec := range s.pending {
		p.set.keep(rec)
	}
	s.pending, s.test = s.pending[:0], ""
	p.set.addSummary(Counts{Passed: passed, Failed: max(0, total-passed)})
}
