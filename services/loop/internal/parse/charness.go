package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"path"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// FormatCHarness is what the common C/C++ unit-test harnesses print:
// minctest, greatest, acutest, cmocka and GoogleTest's bracketed lines,
// Check, Catch2, doctest, and hand-rolled programs' `Tests passed: N` /
// `Tests failed: N` tallies. Several programs (and several harnesses) in one step are summed.
// automake's harness, which runs such programs, is FormatAutomake.
const FormatCHarness = "c-harness"

// `make[1]: Leaving directory '/workspace/tests'`.
var reMakeLeave = lazyregexp.New(`^make(?:\[\d+\])?: Leaving directory '([^']+)'$`)

// maxMakeDepth bounds the stack of make's current directories.
const maxMakeDepth = 16

// cHarnessParser reads C test harnesses' own output, inside make's or not.
// Every harness's counts come from its own summary where it prints one;
// records are kept as they come for formats whose per-test lines cannot be
// mistaken (cmocka, acutest, Check), and only once the summary confirms the
// format for the others (minctest, greatest), so that a stray
// `x.c:12 error` or `FAIL x: y (z.c:1)` in another log is no test.
type cHarnessParser struct {
	lim   *Limits
	paths *Paths
	set   *testSet
	// dirs is make's stack of current directories (absolute, as printed).
	dirs []string
	// sources maps a C source's base name to its workspace path, from the
	// compiler lines: acutest prints only base names.
	sources map[string]string
	// read caches the sources read to place a tally's failed checks.
	read map[string][]byte

	minc  minctestState
	great greatestState
	acu   acutestState
	brk   bracketState
	chk   checkState
	tally tallyState
	am    automakeState
	catch catchState
}

func newCHarnessParser(lim *Limits, paths *Paths) *cHarnessParser {
	p := &cHarnessParser{lim: lim, paths: paths, set: newTestSet(lim), sources: map[string]string{}}
	p.am.set = newTestSet(lim)
	return p
}

func (p *cHarnessParser) feed(ln line) {
	t := ln.text
	if p.brk.detail {
		p.bracketDetail(t)
	}
	p.tallyTick()
	if len(t) == 0 {
		return
	}
	if c := &p.catch; (c.header > 0 || c.cur != nil) && (p.catchFailed(ln) || p.catchLine(t)) {
		return
	}
	if len(t) < 4 {
		return
	}
	if !p.keyword(ln) {
		p.located(ln)
	}
}

// keyword reads the lines a harness starts with a word or mark of its own;
// false for any other line.
func (p *cHarnessParser) keyword(ln line) bool {
	t := ln.text
	switch t[0] {
	case '[':
		if hasPrefix(t, "[doctest] ") {
			p.catchSummary(t[len("[doctest] "):])
			return true
		}
		p.bracket(ln)
	case '-', '=', '.', '~':
		return p.catchLine(t)
	case 't':
		if !hasPrefix(t, "test cases:") {
			return false
		}
		p.catchSummary(t)
	case 'm':
		if !hasPrefix(t, "make") {
			return false
		}
		p.makeDir(t)
	case '\t':
		return p.minctestLine(ln)
	case ' ':
		p.acutestIndented(ln)
		p.greatestGot(t)
		p.tallyLine(ln)
	case 'T':
		switch {
		case hasPrefix(t, "Test "):
			p.acutestResult(ln)
		case hasPrefix(t, "Total: "):
			p.greatestTotal(t)
		case hasPrefix(t, "Testsuite summary for "):
			p.automakeSummary()
		case hasPrefix(t, "TEST CASE:"):
			p.doctestName(t)
		default:
			p.tallyLine(ln)
		}
	case 'F', 'P', 'S', 'X':
		switch {
		case hasPrefix(t, "FAIL: ") || hasPrefix(t, "PASS: ") || hasPrefix(t, "SKIP: ") || hasPrefix(t, "XFAIL: ") || hasPrefix(t, "XPASS: "):
			p.automakeResult(ln)
		case hasPrefix(t, "FAIL ") || hasPrefix(t, "PASS ") || hasPrefix(t, "SKIP "):
			p.greatestResult(ln)
		case hasPrefix(t, "FAILED: ") || hasPrefix(t, "SUCCESS: "):
			p.acutestSummary(t)
		case hasPrefix(t, "Pass: "):
			p.greatestPass(t)
		case hasPrefix(t, "SOME TESTS FAILED ("):
			p.minctestSummary(t)
		default:
			return false
		}
	case 'A':
		switch {
		case hasPrefix(t, "ALL TESTS PASSED ("):
			p.minctestSummary(t)
		case hasPrefix(t, "All tests passed ("):
			p.catchSummary(t)
		default:
			return false
		}
	case 'E', 'G':
		switch {
		case hasPrefix(t, "ERROR: "):
			p.automakeResult(ln)
		case hasPrefix(t, "Expected: ") || hasPrefix(t, "Got: "):
			p.greatestGot(t)
		default:
			return false
		}
	case '#':
		p.automakeFigure(t)
	case '*':
		if !hasPrefix(t, "* Suite ") {
			return false
		}
		p.greatestSuite(t)
	default:
		if !isDigit(t[0]) {
			return false
		}
		// Check's `NN%: Checks: …`, greatest's count of a suite, the
		// tallies' `N tests, P passed, F failed`.
		if !p.checkSummary(t) && !p.greatestSuiteCount(t) {
			p.tallyLine(ln)
		}
	}
	return true
}

// located reads the lines that start with a path: compiler lines (which
// sources were built), minctest's and Check's results, cmocka's bare
// `file:line: error:` and GoogleTest's `file:line: Failure`; and the
// tallies in lower case.
func (p *cHarnessParser) located(ln line) {
	t := ln.text
	if p.compileLine(t) || p.checkResult(ln) || p.minctestLine(ln) || p.bracketLocation(ln) || p.catchFailed(ln) {
		return
	}
	p.tallyLine(ln)
}

// makeDir follows make's `Entering directory` and `Leaving directory`.
func (p *cHarnessParser) makeDir(t []byte) {
	if m := reMakeEnter.FindSubmatch(t); m != nil {
		if len(p.dirs) < maxMakeDepth {
			p.dirs = append(p.dirs, string(m[1]))
		}
		return
	}
	if m := reMakeLeave.FindSubmatch(t); m != nil && len(p.dirs) > 0 && p.dirs[len(p.dirs)-1] == string(m[1]) {
		p.dirs = p.dirs[:len(p.dirs)-1]
	}
}

// compileLine remembers the C sources a compiler line names.
func (p *cHarnessParser) compileLine(t []byte) bool {
	if len(t) > 4096 || !startsWithCompiler(t) || !reCCompile.Match(t) {
		return false
	}
	for _, m := range reCSource.FindAllSubmatch(t, -1) {
		if len(p.sources) >= p.lim.MaxFailures*8 {
			break
		}
		src := p.resolve(string(m[1]))
		p.sources[path.Base(src)] = src
	}
	return true
}

// startsWithCompiler is a cheap test for a line whose first word is a C
// or C++ compiler (`cc`, `/usr/bin/gcc-12`, `clang++`).
func startsWithCompiler(t []byte) bool {
	i := bytes.IndexByte(t, ' ')
	if i < 2 {
		return false
	}
	w := t[:i]
	for len(w) > 0 && (isDigit(w[len(w)-1]) || w[len(w)-1] == '.') {
		w = w[:len(w)-1]
	}
	w = bytes.TrimSuffix(w, []byte("-"))
	return hasSuffix(w, "cc") || hasSuffix(w, "clang") || hasSuffix(w, "++")
}

// resolve makes a path printed relative to make's current directory
// workspace-relative.
func (p *cHarnessParser) resolve(rel string) string {
	if n := len(p.dirs); n > 0 && !path.IsAbs(rel) {
		rel = path.Join(p.dirs[n-1], rel)
	}
	out, _ := p.paths.Normalize(rel)
	return out
}

// file is the workspace path of a source a harness printed: relative to
// make's directory when that exists, else the compiled source of that
// name, else the snapshot's one file of that name (acutest prints base
// names only; a program run from another directory than the one it was
// built in prints paths relative to the latter).
func (p *cHarnessParser) file(printed string) string {
	base := path.Base(printed)
	src, compiled := p.sources[base]
	if compiled && !strings.Contains(printed, "/") {
		return src
	}
	rel := p.resolve(printed)
	if p.paths.Exists(rel) {
		return rel
	}
	if compiled {
		return src
	}
	if f := p.snapshotFile(base); f != "" {
		return f
	}
	return rel
}

// snapshotFile finds the one C/C++ source or header of the snapshot with
// this base name ("" when there is none, several, or no snapshot).
func (p *cHarnessParser) snapshotFile(base string) string {
	return p.paths.cSources()[base]
}

// finish commits the programs that ended without their summary.
func (p *cHarnessParser) finish() {
	p.acutestEnd()
	p.bracketEnd()
	p.greatestEnd()
	p.tallyEnd()
}

// record keeps a test's record and lists it in the inventory; its count
// comes with its program's summary.
func (p *cHarnessParser) record(t Test) {
	if t.Status != StatusUnknown {
		p.set.note(t.ID, t.Status)
	}
	p.set.keep(t)
}

// tally counts one test by status.
func tally(c *Counts, st Status) {
	switch st {
	case StatusPassed:
		c.Passed++
	case StatusFailed:
		c.Failed++
	case StatusSkipped:
		c.Skipped++
	case StatusError:
		c.Errors++
	}
}

// crashKind is the kind of a test a harness reports as died rather than
// failed a check: killed by a signal (acutest "Test interrupted by
// SIGSEGV.", cmocka "Test failed with exception: Segmentation fault(11)",
// Check "Received signal 11 (…)"), timed out (Check "Test timeout
// expired"), or else an error in the test.
func crashKind(msg string) glv1.FailureKind {
	switch {
	case strings.Contains(msg, "signal") || strings.Contains(msg, "interrupted by SIG") ||
		strings.Contains(msg, "exception: ") || strings.Contains(msg, "Segmentation fault"):
		return glv1.FailureKind_FAILURE_KIND_CRASH
	case strings.Contains(msg, "timeout expired") || strings.Contains(msg, "Timeout"):
		return glv1.FailureKind_FAILURE_KIND_TIMEOUT
	}
	return glv1.FailureKind_FAILURE_KIND_TEST_ERROR
}

// testID is a harness test's stable id: suite::name, or the name alone.
// It never holds the failure's location, which moves with the failure.
func testID(suite, name string) string {
	if suite == "" {
		return name
	}
	return suite + "::" + name
}
