package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strconv"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

var (
	// A group's start: cmocka `Running 4 test(s).` (2.x: `tests: Running
	// 4 test(s).`), GoogleTest `Running 3 tests from 1 test suite.`.
	reBracketRunning = lazyregexp.New(`^(?:\S+: )?Running \d+ tests?(?:\(s\))?(?: from \d+ test (?:suite|case)s?)?\.$`)
	// A group's end: cmocka `4 test(s) run.` (2.x with its group name),
	// GoogleTest `3 tests from 1 test suite ran. (0 ms total)`.
	reBracketRan = lazyregexp.New(`^(?:\S+: )?(\d+) tests?(?:\(s\))?(?: run\.| from \d+ test (?:suite|case)s? ran\.(?: \(.*\))?)$`)
	// `[  PASSED  ] 1 test(s).`, and the heads of the lists of skipped and
	// failed tests: `2 test(s), listed below:` (cmocka 2.x: `tests: 2 …`).
	reBracketCount  = lazyregexp.New(`^(\d+) tests?(?:\(s\))?\.$`)
	reBracketListed = lazyregexp.New(`^(?:\S+: )?(\d+) tests?(?:\(s\))?, listed below:$`)
	// Where a check failed: cmocka `[   LINE   ] --- test.c:17: error:
	// Failure!` (bare in its TAP/subunit modes and for mock errors),
	// GoogleTest `test.cc:12: Failure` (MSVC: `test.cc(12): error: …`).
	reBracketLoc = lazyregexp.New(`^([^\s:()\[\]]+\.(?:c|cc|cpp|cxx|c\+\+|h|hh|hpp))(?::(\d+):|\((\d+)\):) (?:error: )?(.*)$`)
)

// bracketState is the group of cmocka or GoogleTest tests being read.
type bracketState struct {
	// running is the test between its RUN and its result; file/line
	// locate its first failed check and msg collects what it printed.
	running string
	file    string
	line    int
	off     int64
	msg     msgBuf
	// detail: GoogleTest's failure text follows its location line.
	detail bool
	// counts are the group's results so far; open once it started.
	counts Counts
	open   bool
	// listing: after the group's closing count, FAILED and SKIPPED
	// lines list tests already counted.
	listing bool
	run     int
	passed  int
	skipped int
	summed  bool
}

// bracket reads a `[ WORD ] …` line.
func (p *cHarnessParser) bracket(ln line) {
	t := ln.text
	s := &p.brk
	s.detail = false
	if len(t) < 13 || t[11] != ']' {
		return
	}
	word := string(bytes.TrimSpace(t[1:11]))
	rest := t[12:]
	if len(rest) > 0 && rest[0] == ' ' {
		rest = rest[1:]
	}
	switch word {
	case "==========":
		p.bracketBanner(rest)
	case "RUN":
		s.running, s.file, s.line, s.off = bracketName(rest), "", 0, ln.off
		s.msg = msgBuf{max: p.lim.MaxMessageBytes}
		s.listing = false
	case "OK":
		p.bracketResult(rest, StatusPassed, ln.off)
	case "FAILED":
		if s.listing {
			if m := reBracketListed.FindSubmatch(rest); m != nil {
				s.summed = true
			}
			return
		}
		p.bracketResult(rest, StatusFailed, ln.off)
	case "SKIPPED":
		if s.listing {
			// `1 test(s), listed below:`, or under --gtest_brief `1 test.`.
			m := reBracketListed.FindSubmatch(rest)
			if m == nil {
				m = reBracketCount.FindSubmatch(rest)
			}
			if m != nil {
				s.skipped, _ = strconv.Atoi(string(m[1]))
			}
			return
		}
		p.bracketResult(rest, StatusSkipped, ln.off)
	case "PASSED":
		if m := reBracketCount.FindSubmatch(rest); m != nil && s.listing {
			s.passed, _ = strconv.Atoi(string(m[1]))
			s.summed = true
		}
	case "ERROR", "":
		if hasPrefix(rest, "--- ") {
			if s.running != "" {
				s.msg.add(rest[4:])
			}
			return
		}
		if word == "ERROR" && !s.listing {
			p.bracketResult(rest, StatusError, ln.off)
		}
	case "LINE":
		if hasPrefix(rest, "--- ") {
			p.bracketLocation(line{text: rest[4:], off: ln.off})
		}
	}
}

// bracketBanner reads the `[==========]` lines that open and close a group.
func (p *cHarnessParser) bracketBanner(rest []byte) {
	s := &p.brk
	if reBracketRunning.Match(rest) {
		p.bracketEnd()
		s.open = true
		return
	}
	if m := reBracketRan.FindSubmatch(rest); m != nil {
		s.run, _ = strconv.Atoi(string(m[1]))
		s.listing, s.running, s.open = true, "", true
	}
}

// bracketName is a test's name without GoogleTest's `(0 ms)` or the
// parameters of a parameterized test.
func bracketName(rest []byte) string {
	name := string(rest)
	if i := strings.Index(name, ", where "); i > 0 {
		name = name[:i]
	}
	if i := strings.LastIndex(name, " ("); i > 0 && strings.HasSuffix(name, ")") {
		name = name[:i]
	}
	return strings.TrimSpace(name)
}

// bracketResult records a test's outcome.
func (p *cHarnessParser) bracketResult(rest []byte, st Status, off int64) {
	s := &p.brk
	name := bracketName(rest)
	if name == "" || len(name) > 512 {
		return
	}
	rec := Test{ID: name, Name: name, Status: st, Offset: off}
	if st.failing() || st == StatusSkipped {
		rec.Message = s.msg.String()
		switch {
		case (s.running == name || s.running == "") && s.file != "":
			rec.File, rec.Line, rec.Offset = s.file, s.line, s.off
			if st == StatusFailed {
				rec.kind = glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION
			}
		case st.failing():
			// No failed check: the test died (cmocka's exception
			// handler) or its setup failed.
			rec.kind = crashKind(rec.Message)
		}
		if rec.Message == "" && st.failing() {
			rec.Message = name + " failed"
		}
	}
	tally(&s.counts, st)
	s.open = true
	s.running, s.file, s.line = "", "", 0
	s.msg.reset()
	p.record(rec)
}

// bracketLocation reads where the running test's check failed. Outside
// a test only GoogleTest's `file:line: Failure` counts: under
// --gtest_brief it prints no RUN line before the failure.
func (p *cHarnessParser) bracketLocation(ln line) bool {
	s := &p.brk
	t := ln.text
	if s.running == "" && !hasSuffix(t, "Failure") && !hasSuffix(t, "Failure!") || !bytes.Contains(t, []byte(": ")) {
		return false
	}
	m := reBracketLoc.FindSubmatch(t)
	if m == nil {
		return false
	}
	msg := bytes.TrimSpace(m[4])
	failure := len(msg) == 0 || string(msg) == "Failure" || string(msg) == "Failure!"
	if s.running == "" && !failure {
		return false
	}
	if s.msg.max == 0 {
		s.msg.max = p.lim.MaxMessageBytes
	}
	if s.file == "" {
		s.file = p.file(string(m[1]))
		n := m[2]
		if len(n) == 0 {
			n = m[3]
		}
		s.line, _ = strconv.Atoi(string(n))
		s.off = ln.off
	}
	switch {
	case failure || string(msg) == "Skipped":
		// GoogleTest prints what failed (or why it skipped) on the lines
		// after it.
		s.detail = true
	default:
		s.msg.add(msg)
	}
	return true
}

// bracketDetail adds a line of GoogleTest's failure text.
func (p *cHarnessParser) bracketDetail(t []byte) {
	s := &p.brk
	if len(t) > 0 && t[0] == '[' {
		s.detail = false
		return
	}
	s.msg.add(t)
}

// bracketEnd commits the group being read: its closing counts when it
// printed them, else its tests' outcomes (the program died).
func (p *cHarnessParser) bracketEnd() {
	s := &p.brk
	if !s.open {
		return
	}
	c := s.counts
	if s.summed {
		c = Counts{Passed: s.passed, Skipped: s.skipped, Failed: max(0, s.run-s.passed-s.skipped)}
	} else if s.running != "" {
		// A test that started and never ended: its program died in it.
		c.Failed++
		c.Unfinished++
		p.record(Test{ID: s.running, Name: s.running, Status: StatusFailed, File: s.file, Line: s.line, Offset: s.off,
			Message: "the test program died during " + s.running + "\n" + s.msg.String()})
	}
	*s = bracketState{}
	p.set.addSummary(c)
}
