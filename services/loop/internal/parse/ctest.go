package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strconv"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

var (
	// `1/6 Test #1: add ......***Failed    0.00 sec`, `   Passed`, `***Skipped`,
	// `***Timeout`, `***Exception: SegFault`, `***Not Run (Disabled)`.
	reCTestResult = lazyregexp.New(`^\s*\d+/\d+ Test\s+#(\d+): (.+?) \.*\s*(?:\*\*\*|\s)(.+?)\s+[\d.]+ sec$`)
	// A signal CTest 3.x has no word of its own for prints the process's
	// description before its `***Exception:` (SIGABRT, an assert()):
	// `4/12 Test  #4: name ......Subprocess aborted***Exception:   0.00 sec`.
	reCTestSignal = lazyregexp.New(`^\s*\d+/\d+ Test\s+#(\d+): (.+?) \.*([^.*\s][^*]*?)\*\*\*Exception:\s*(.*?)\s+[\d.]+ sec$`)
	// The head of a result line the test's pass or fail regular expression
	// continues on the next lines (`***Failed  Required regular expression
	// not found. Regex=[, Fail 0` then `]  0.12 sec`), and the whole of it.
	reCTestHead      = lazyregexp.New(`^\s*\d+/\d+ Test\s+#\d+: .*\*\*\*.*Regex=\[`)
	reCTestMultiline = lazyregexp.New(`(?s)^\s*\d+/\d+ Test\s+#(\d+): (.+?) \.*\s*\*\*\*(.+?)\s+[\d.]+ sec$`)
	reCTestSum       = lazyregexp.New(`^\d+% tests passed, (\d+) tests? failed out of (\d+)$`)
	// `-V` prefixes a test's output with its number: `1: calc_test.c:20: ...`.
	reCTestOut = lazyregexp.New(`^(\d+): (.*)$`)
	// A C/C++ location in a message line: at its start (`calc_test.c:20:
	// ...`), after a program's name (glibc's assert: `prog: calc.c:33:
	// main: Assertion ... failed.`) or in parentheses (minicheck's `FAIL
	// [..]: test_x (during actual test at /workspace/tests/x.c:96)`,
	// yyjson's `Assertion failed: expr (/workspace/test/t.c: 2227)`).
	reCLoc = lazyregexp.New(`(?:^|[\s(\[])([\w./+-]*[\w-]\.(?:c|cc|cpp|cxx|h|hh|hpp)):(?:(\d+)|\s(\d+)\))`)
	// A test name that may be its program's: `example`, `test_json_val`.
	reCTestProgram = lazyregexp.New(`^[\w.+-]+$`)
)

// maxHeadLines bounds the lines one result line may span.
const maxHeadLines = 8

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
	// head is a result line that a regular expression with a newline
	// continues on the next lines, headN how many lines it holds.
	head  []byte
	headN int
	headO int64
}

func newCTestParser(lim *Limits, paths *Paths) *ctestParser {
	return &ctestParser{lim: lim, paths: paths, set: newTestSet(lim), out: msgBuf{max: lim.MaxMessageBytes}}
}

func (p *ctestParser) feed(ln line) {
	t := ln.text
	if p.head != nil && p.continueHead(t) {
		return
	}
	if len(t) == 0 {
		p.flushAfter()
		return
	}
	if bytes.Contains(t, []byte(" Test ")) {
		if hasSuffix(t, " sec") {
			if m := reCTestSignal.FindSubmatch(t); m != nil && bytes.Contains(t, []byte("***Exception:")) {
				p.flushAfter()
				word := append([]byte("Exception: "), bytes.TrimSpace(m[3])...)
				if len(m[4]) > 0 {
					word = append(append(word, ' '), m[4]...)
				}
				p.result(string(m[1]), string(m[2]), word, ln.off)
				return
			}
			if m := reCTestResult.FindSubmatch(t); m != nil {
				p.flushAfter()
				p.result(string(m[1]), string(m[2]), m[3], ln.off)
				return
			}
		} else if reCTestHead.Match(t) {
			p.flushAfter()
			p.head, p.headN, p.headO = append(p.head[:0], t...), 1, ln.off
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

// continueHead adds a line to a result line split by its regular
// expression; false when the line cannot continue it (the head is then
// dropped and the line read as any other).
func (p *ctestParser) continueHead(t []byte) bool {
	if p.headN >= maxHeadLines || len(p.head)+len(t) > p.lim.MaxMessageBytes {
		p.head = nil
		return false
	}
	p.head = append(append(p.head, '\n'), t...)
	p.headN++
	if !hasSuffix(t, " sec") {
		return true
	}
	if m := reCTestMultiline.FindSubmatch(p.head); m != nil {
		p.result(string(m[1]), string(m[2]), m[3], p.headO)
	}
	p.head = nil
	return true
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
		if t.Message == "Failed" {
			t.Message = "" // the output says more than "Failed"
		}
		t.Message = joinLines(t.Message, out)
		t.File, t.Line = p.location(p.out.b)
	}
	if t.File == "" {
		t.File = p.program(t.Name)
	}
	p.out.reset()
	p.outNum = ""
	p.set.add(*t)
}

// location is the first C/C++ location of the project the test's output
// names: the first one of a file the snapshot has, else the first one.
func (p *ctestParser) location(out []byte) (string, int) {
	first, firstLine := "", 0
	for _, l := range bytes.Split(out, []byte("\n")) {
		if !bytes.Contains(l, []byte(".c")) && !bytes.Contains(l, []byte(".h")) {
			continue
		}
		for _, m := range reCLoc.FindAllSubmatch(l, 4) {
			file, project := p.paths.Normalize(string(m[1]))
			if !project {
				continue
			}
			n := m[2]
			if len(n) == 0 {
				n = m[3]
			}
			line, _ := strconv.Atoi(string(n))
			if p.paths.Exists(file) {
				return file, line
			}
			if first == "" {
				first, firstLine = file, line
			}
		}
	}
	return first, firstLine
}

// program is the source of a failed test that printed no location, when
// the test bears its program's name (`add_test(NAME example COMMAND
// example)` over test/example.c) and the snapshot has one source of that
// name: the test is placed in its file, at no line.
func (p *ctestParser) program(name string) string {
	if !reCTestProgram.MatchString(name) {
		return ""
	}
	srcs := p.paths.cSources()
	for _, ext := range []string{".c", ".cc", ".cpp", ".cxx"} {
		if f := srcs[name+ext]; f != "" {
			return f
		}
	}
	return ""
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

func (p *ctestParser) finish() {
	p.head = nil
	p.flushAfter()
}
