package parse

import (
	"bytes"
	"regexp"
	"strconv"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

var (
	// `1/6 Test #1: add ......***Failed    0.00 sec`, `   Passed`, `***Skipped`,
	// `***Timeout`, `***Exception: SegFault`, `***Not Run (Disabled)`.
	reCTestResult = regexp.MustCompile(`^\s*\d+/\d+ Test\s+#(\d+): (.+?) \.*\s*(?:\*\*\*|\s)(.+?)\s+[\d.]+ sec$`)
	reCTestSum    = regexp.MustCompile(`^\d+% tests passed, (\d+) tests? failed out of (\d+)$`)
	// `-V` prefixes a test's output with its number: `1: calc_test.c:20: ...`.
	reCTestOut = regexp.MustCompile(`^(\d+): (.*)$`)
	// A C/C++ location at the start of a message line: `calc_test.c:20: ...`.
	reCLoc = regexp.MustCompile(`^([\w./-]+\.(?:c|cc|cpp|cxx|h|hh|hpp)):(\d+)`)
)

// ctestParser reads CTest's output: one result line per test, the test's
// output (`--output-on-failure` prints it after the line, `-V` before it
// with an `N: ` prefix) and the `N% tests passed, M tests failed out of T`
// summary, whose passed share counts skipped tests as passed.
type ctestParser struct {
	lim   *Limits
	paths *Paths
	set   *testSet
	// out collects the output of the test being printed.
	out    msgBuf
	outNum string
	// after is the failing record whose --output-on-failure text follows.
	after   *Test
	skipped int
	errors  int
}

func newCTestParser(lim *Limits, paths *Paths) *ctestParser {
	return &ctestParser{lim: lim, paths: paths, set: newTestSet(lim), out: msgBuf{max: lim.MaxMessageBytes}}
}

func (p *ctestParser) feed(ln line) {
	t := ln.text
	if len(t) == 0 {
		p.flushAfter()
		return
	}
	if hasSuffix(t, " sec") && bytes.Contains(t, []byte(" Test ")) {
		if m := reCTestResult.FindSubmatch(t); m != nil {
			p.flushAfter()
			p.result(string(m[1]), string(m[2]), m[3], ln.off)
			return
		}
	}
	if isDigit(t[0]) && bytes.Contains(t, []byte("% tests passed, ")) {
		if m := reCTestSum.FindSubmatch(t); m != nil {
			p.summary(m)
			return
		}
	}
	if hasPrefix(t, "    Start ") || hasPrefix(t, "test ") {
		p.flushAfter()
		return
	}
	if p.after != nil {
		p.out.add(t)
		return
	}
	if !isDigit(t[0]) {
		return
	}
	if m := reCTestOut.FindSubmatch(t); m != nil {
		if string(m[1]) != p.outNum {
			p.outNum = string(m[1])
			p.out.reset()
		}
		if !hasPrefix(m[2], "Test command: ") && !hasPrefix(m[2], "Working Directory: ") && !hasPrefix(m[2], "Test timeout computed") {
			p.out.add(m[2])
		}
	}
}

// result records one test's result line.
func (p *ctestParser) result(num, name string, word []byte, off int64) {
	p.set.seen = true
	t := Test{ID: name, Name: name, Offset: off}
	w := string(bytes.TrimSpace(word))
	switch {
	case w == "Passed":
		t.Status = StatusPassed
	case w == "Skipped" || hasPrefix(word, "Not Run (Disabled)"):
		t.Status = StatusSkipped
		p.skipped++
	case hasPrefix(word, "Not Run"):
		t.Status, t.Message = StatusError, "not run: "+w
		p.errors++
	case w == "Timeout":
		t.Status, t.kind, t.Message = StatusFailed, glv1.FailureKind_FAILURE_KIND_TIMEOUT, "timed out"
	case hasPrefix(word, "Exception") || bytes.Contains(word, []byte("aborted")):
		t.Status, t.kind, t.Message = StatusFailed, glv1.FailureKind_FAILURE_KIND_CRASH, w
	default:
		t.Status, t.Message = StatusFailed, w
	}
	if !t.Status.failing() {
		p.set.add(t)
		p.out.reset()
		return
	}
	if num == p.outNum && len(p.out.b) > 0 { // -V printed the output before the result
		p.after = &t
		p.flushAfter()
		return
	}
	p.out.reset()
	p.after = &t
}

// flushAfter records the failing test with its output as the message.
func (p *ctestParser) flushAfter() {
	t := p.after
	if t == nil {
		return
	}
	p.after = nil
	if out := p.out.String(); out != "" {
		if t.Status == StatusFailed && t.kind == glv1.FailureKind_FAILURE_KIND_UNSPECIFIED {
			t.Message = "" // the output says more than "Failed"
		}
		t.Message = joinLines(t.Message, out)
		for _, l := range bytes.Split(p.out.b, []byte("\n")) {
			if m := reCLoc.FindSubmatch(l); m != nil {
				t.File, _ = p.paths.Normalize(string(m[1]))
				t.Line, _ = strconv.Atoi(string(m[2]))
				break
			}
		}
	}
	p.out.reset()
	p.outNum = ""
	p.set.add(*t)
}

// summary reads `50% tests passed, 3 tests failed out of 6`.
func (p *ctestParser) summary(m [][]byte) {
	p.flushAfter()
	failed, _ := strconv.Atoi(string(m[1]))
	total, _ := strconv.Atoi(string(m[2]))
	c := Counts{Failed: max(0, failed-p.errors), Errors: min(p.errors, failed), Skipped: p.skipped}
	c.Passed = max(0, total-failed-p.skipped)
	p.set.addSummary(c)
	p.skipped, p.errors = 0, 0
}

func (p *ctestParser) finish() { p.flushAfter() }
