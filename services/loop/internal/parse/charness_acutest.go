package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"strconv"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

var (
	// acutest's line per test: `Test mul...   [ FAILED ]`, `[ OK ]` (with
	// the duration under --time), `[ SKIPPED ]`.
	reAcutestResult = lazyregexp.New(`^Test (.+?)\.\.\.\s+\[ (OK|FAILED|SKIPPED|ok|failed|skipped) \](?:\s+[\d.]+ secs)?$`)
	// A failed check under it: `  test.c:13: got == want... failed`
	// (before 2024: `  test.c:13: Check got == want... failed`); acutest
	// prints the file's base name only.
	reAcutestCheck = lazyregexp.New(`^\s+([^\s:]+):(\d+): (?:Check )?(.*)\.\.\. failed$`)
	// A test whose process died: its line ends with the parent's word on
	// it instead of a result, `Test crash...   Test interrupted by SIGSEGV.`.
	reAcutestDied = lazyregexp.New(`^Test (.+?)\.\.\.\s+((?:Test interrupted by|Test ended in an unexpected way|Cannot ).*)$`)
	// The program's summary: `SUCCESS: No unit tests have failed.` (before
	// 2024: `SUCCESS: All unit tests have passed.`) or `FAILED: 2 of 3 unit
	// tests have failed.`.
	reAcutestSum = lazyregexp.New(`^(?:SUCCESS: (?:No unit tests have failed|All unit tests have passed)\.|FAILED: (\d+) of (\d+) unit tests? ha(?:s|ve) failed\.)$`)
)

// acutestState is the acutest program being read.
type acutestState struct {
	// counts are the program's tests so far; open is true once one ran.
	counts Counts
	open   bool
	// cur is the failing test whose check lines follow, detail its
	// TEST_MSG lines.
	cur    *Test
	detail msgBuf
}

// acutestResult reads `Test name... [ RESULT ]`, or the line of a test
// whose process died.
func (p *cHarnessParser) acutestResult(ln line) {
	var rec Test
	var died []byte
	if m := reAcutestResult.FindSubmatch(ln.text); m != nil {
		name := string(m[1])
		rec = Test{ID: name, Name: name, Offset: ln.off}
		switch string(m[2]) {
		case "OK", "ok":
			rec.Status = StatusPassed
		case "SKIPPED", "skipped":
			rec.Status = StatusSkipped
		default:
			rec.Status, rec.kind = StatusFailed, glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION
		}
	} else if m := reAcutestDied.FindSubmatch(ln.text); m != nil {
		name := string(m[1])
		died = m[2]
		rec = Test{ID: name, Name: name, Offset: ln.off, Status: StatusFailed, kind: crashKind(string(died))}
	} else {
		return
	}
	p.acutestFlush()
	s := &p.acu
	tally(&s.counts, rec.Status)
	s.open = true
	if rec.Status == StatusFailed {
		s.cur = &rec
		s.detail = msgBuf{max: p.lim.MaxMessageBytes}
		if died != nil {
			s.detail.add(died)
		}
		return
	}
	p.record(rec)
}

// acutestIndented reads the lines under a failed test: its failed checks
// (the first one locates it), TEST_MSG lines, an ERROR.
func (p *cHarnessParser) acutestIndented(ln line) {
	s := &p.acu
	if s.cur == nil {
		return
	}
	t := ln.text
	if hasSuffix(t, "... failed") {
		if m := reAcutestCheck.FindSubmatch(t); m != nil {
			if s.cur.File == "" {
				s.cur.File = p.file(string(m[1]))
				s.cur.Line, _ = strconv.Atoi(string(m[2]))
				s.cur.Offset = ln.off
			}
			s.detail.add(trimLeftSpace(t))
			return
		}
	}
	s.detail.add(trimLeftSpace(t))
}

// acutestFlush keeps the failing test whose lines were being read.
func (p *cHarnessParser) acutestFlush() {
	s := &p.acu
	if s.cur == nil {
		return
	}
	rec := *s.cur
	s.cur = nil
	rec.Message = s.detail.String()
	if rec.Message == "" {
		rec.Message = rec.Name + " failed"
	}
	p.record(rec)
}

// acutestSummary closes a program.
func (p *cHarnessParser) acutestSummary(t []byte) {
	m := reAcutestSum.FindSubmatch(t)
	if m == nil {
		return
	}
	p.acutestFlush()
	s := &p.acu
	c := s.counts
	if len(m[1]) > 0 {
		failed, _ := strconv.Atoi(string(m[1]))
		run, _ := strconv.Atoi(string(m[2]))
		c = Counts{Passed: max(0, run-failed-c.Skipped), Failed: failed, Skipped: c.Skipped}
	}
	s.counts, s.open = Counts{}, false
	p.set.addSummary(c)
}

// acutestEnd commits a program that died before its summary.
func (p *cHarnessParser) acutestEnd() {
	p.acutestFlush()
	if s := &p.acu; s.open {
		p.set.addSummary(s.counts)
		s.counts, s.open = Counts{}, false
	}
}
