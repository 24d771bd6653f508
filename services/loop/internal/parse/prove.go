package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strconv"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// FormatProve is the summary of Perl's TAP harness (prove, `make test`
// of ExtUtils::MakeMaker and Module::Build, which run the same harness).
const FormatProve = "prove"

var (
	// The totals line ends every run: `Files=3, Tests=42,  1 wallclock secs …`.
	reProveTotals = lazyregexp.New(`^Files=(\d+), Tests=(\d+)\b`)
	// A Test Summary Report entry: `t/basic.t (Wstat: 768 (exited 3) Tests: 4 Failed: 3)`.
	reProveReport = lazyregexp.New(`^(\S+)\s+\(Wstat: (\d+)(?: \([^)]*\))? Tests: (\d+) Failed: (\d+)\)$`)
	// Its details: `  Failed tests:  1-2, 4`, `  Non-zero exit status: 3`, `  Parse errors: Bad plan. …`.
	reProveDetail = lazyregexp.New(`^\s+(Failed tests?|Non-zero exit status|Non-zero wait status|Parse errors|TODO passed|Skipped tests?):\s+(.*)$`)
	// Test::Harness 2's totals: `Failed 1/3 test programs. 2/42 subtests failed.`
	// (`test scripts, 66.67% okay.` in older ones).
	reProveOldFailed = lazyregexp.New(`^Failed (\d+)/(\d+) test (?:programs|scripts)\b.*?(\d+)/(\d+) subtests failed`)
	// A test file's header: `t/basic.t ....... ok`, `t/x.t .. skipped: why`,
	// `t/y.t ....... ` (its verdict on the next lines); --timer adds `[12:00:01] `.
	reProveFile = lazyregexp.New(`^(?:\[[\d:]+\] )?(\S+\.\w+) \.{2,}(?: (.*))?$`)
	// Perl's die: `not a range: a..b at lib/Calc.pm line 25.`
	rePerlDie = lazyregexp.New(`^(.+) at (\S+) line (\d+)\.$`)
)

// proveFile is a test file the Test Summary Report lists.
type proveFile struct {
	name    string
	failed  int
	details []string
	off     int64
}

// perlDeath is the message of a test file that died (`die`), printed just
// before Test::More's `# Looks like your test exited with 255 …`.
type perlDeath struct {
	msg, file string
	line      int
}

// proveParser reads the harness's summary: its totals, the Test Summary
// Report of failed files and Test::More's failure diagnostics (the failing
// tests' names and places). Tests the harness ran are counted as it
// counts them (a subtest block is one test); skipped ones are known only
// from verbose output (-v), where the TAP of each file is shown.
type proveParser struct {
	lim   *Limits
	paths *Paths
	set   *testSet
	tm    testMoreDiags
	// The current run (reset at its totals line).
	files    []proveFile
	inReport bool
	oldFail  int
	oldSeen  bool
	skipped  int
	deaths   []perlDeath
	bail     string
	// last is the last unindented line that was nothing the harness
	// prints: the message of a test that dies comes there.
	last []byte
	// header: a test file's line (`t/basic.t .. ok`) or the Test Summary
	// Report was seen: the harness ran.
	header bool
}

// maxProveFiles bounds the Test Summary Report entries kept per run.
const maxProveFiles = 256

func newProveParser(lim *Limits, paths *Paths) *proveParser {
	return &proveParser{lim: lim, paths: paths, set: newTestSet(lim)}
}

func (p *proveParser) feed(ln line) {
	t := ln.text
	if len(t) == 0 {
		p.inReport = false
		return
	}
	s := t[leadingSpace(t):]
	if len(s) > 0 && s[0] == '#' {
		if p.tm.feed(s) {
			return
		}
		if hasPrefix(s, "# Looks like your test exited with") && len(p.last) > 0 && len(p.deaths) < maxProveFiles {
			p.deaths = append(p.deaths, perlDeathOf(p.last))
			p.last = nil
		}
		return
	}
	p.tm.end()
	switch t[0] {
	case 'F':
		if hasPrefix(t, "Files=") {
			if m := reProveTotals.FindSubmatch(t); m != nil {
				p.endRun(atoi(m[2]), ln.off)
				return
			}
		}
		if hasPrefix(t, "Failed ") {
			if m := reProveOldFailed.FindSubmatch(t); m != nil {
				p.oldFail, p.oldSeen = atoi(m[3]), true
				return
			}
		}
		if hasPrefix(t, "FAILED--Further testing stopped") {
			return
		}
	case 'B':
		if hasPrefix(t, "Bailout called.") {
			_, why, _ := strings.Cut(string(t), "Further testing stopped:")
			p.bail = "Bail out! " + strings.TrimSpace(why)
			return
		}
	case 'T':
		if string(t) == "Test Summary Report" {
			p.inReport, p.header = true, true
			return
		}
	case 'A', 'R', 'D', '-':
		if string(t) == "All tests successful." || hasPrefix(t, "Result: ") || hasPrefix(t, "Dubious, test returned ") || hasPrefix(t, "----") {
			return
		}
	case ' ':
		if p.inReport {
			p.detail(t)
			return
		}
	case 'o', 'n':
		// Verbose output shows each file's TAP: its skipped and TODO tests
		// are counted as skipped, as the TAP parser counts them.
		if pt, ok := matchTAPPoint(t, true); ok && pt.indent == 0 {
			if pt.directive != "" {
				p.skipped++
			}
			return
		}
	}
	if p.inReport {
		if m := reProveReport.FindSubmatch(t); m != nil {
			if len(p.files) < maxProveFiles {
				p.files = append(p.files, proveFile{name: string(m[1]), failed: atoi(m[4]), off: ln.off})
			}
			return
		}
	}
	if bytes.Contains(t, []byte(" ..")) && reProveFile.Match(t) {
		p.header = true
		return
	}
	if hasPrefix(t, "Failed ") && bytes.Contains(t, []byte(" subtests")) {
		return // `Failed 3/4 subtests`, a file's verdict
	}
	if t[0] != ' ' && t[0] != '\t' {
		p.last = append(p.last[:0], t[:min(len(t), 512)]...)
	}
}

// detail records a Test Summary Report detail line of the last file.
func (p *proveParser) detail(t []byte) {
	m := reProveDetail.FindSubmatch(t)
	if m == nil || len(p.files) == 0 {
		return
	}
	f := &p.files[len(p.files)-1]
	if string(m[1]) == "TODO passed" || strings.HasPrefix(string(m[1]), "Skipped") {
		return
	}
	if len(f.details) < 8 {
		f.details = append(f.details, string(m[1])+": "+strings.Join(strings.Fields(string(m[2])), " "))
	}
}

func perlDeathOf(t []byte) perlDeath {
	if m := rePerlDie.FindSubmatch(t); m != nil {
		return perlDeath{msg: string(t), file: string(m[2]), line: atoi(m[3])}
	}
	return perlDeath{msg: string(t)}
}

// endRun closes one harness run at its totals line: its counts, and a
// record for every failed test and every file that failed otherwise.
func (p *proveParser) endRun(tests int, off int64) {
	failed := 0
	for _, f := range p.files {
		failed += f.failed
	}
	if p.oldSeen && failed == 0 {
		failed = p.oldFail
	}
	errs := p.records(off)
	p.set.addSummary(Counts{Passed: max(0, tests-failed-p.skipped), Failed: failed, Skipped: p.skipped, Errors: errs})
	p.files, p.oldFail, p.oldSeen, p.skipped, p.deaths, p.bail, p.inReport = nil, 0, false, 0, nil, "", false
	p.tm.list, p.last = p.tm.list[:0], nil
}

// records adds the run's failing tests (from Test::More's diagnostics),
// then a record for each listed file no diagnostic explained; it returns
// how many files failed without a failing test (died, bad plan).
func (p *proveParser) records(off int64) int {
	explained := map[string]bool{}
	for i := range p.tm.list {
		d := &p.tm.list[i]
		if d.line == 0 {
			continue
		}
		name := d.name
		if name == "" {
			name = "line " + strconv.Itoa(d.line)
		}
		file, _ := p.paths.Normalize(d.file)
		p.set.add(Test{ID: d.file + " > " + name, Suite: d.file, Name: name, File: file, Line: d.line,
			Status: StatusFailed, Message: d.message(), Offset: off, kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION})
		explained[d.file] = true
	}
	errs := 0
	deaths := p.deaths
	for _, f := range p.files {
		if f.failed > 0 && explained[f.name] {
			continue
		}
		file, _ := p.paths.Normalize(f.name)
		t := Test{ID: f.name, Name: f.name, File: file, Status: StatusFailed, Offset: f.off,
			Message: strings.Join(f.details, "\n"), kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION}
		if f.failed == 0 {
			errs++
			t.Status, t.kind = StatusError, glv1.FailureKind_FAILURE_KIND_TEST_ERROR
			var head []string
			if p.bail != "" {
				p.set.incomplete = bailedOut(p.bail)
				head, p.bail = append(head, p.bail), ""
			}
			if len(deaths) > 0 {
				d := deaths[0]
				deaths = deaths[1:]
				head = append(head, d.msg)
				if d.line > 0 {
					t.File, t.Line = p.perlSource(d.file), d.line
				}
			}
			t.Message = strings.Join(append(head, f.details...), "\n")
		}
		p.set.add(t)
	}
	if p.bail != "" {
		p.set.incomplete = bailedOut(p.bail)
		errs++
		p.set.add(Test{ID: "Bail out!", Name: "Bail out!", Status: StatusError, Message: p.bail, Offset: off})
	}
	return errs
}

// useHarness makes the harness's account the parser's result when the
// harness printed its totals (verbose output also shows the TAP, whose
// points count a subtest block's tests one by one and lack their files),
// or when it named failures of a run it never finished and no TAP was
// shown.
func (p *nodeTestParser) useHarness() bool {
	h := p.harness
	h.finish()
	if !h.set.seen || h.set.summary == nil && (h.set.counts.Total() == 0 || p.set.counts.Total() > 0) {
		return false
	}
	p.set, p.format = h.set, FormatProve
	return true
}

// perlSource is the workspace path of a Perl file a message names: `make
// test` runs the copies ExtUtils::MakeMaker and Module::Build put in
// blib/lib, whose source is lib/.
func (p *proveParser) perlSource(file string) string {
	rel, _ := p.paths.Normalize(file)
	before, after, ok := strings.Cut("/"+rel, "/blib/lib/")
	if !ok {
		return rel
	}
	src := strings.TrimPrefix(before+"/lib/"+after, "/")
	if p.paths.Exists(src) {
		return src
	}
	return rel
}

func (p *proveParser) finish() {
	if !p.header && len(p.set.inv) == 0 && p.set.summary == nil {
		return
	}
	p.set.seen = true
	if p.header && p.set.summary == nil {
		// The harness never printed its totals (killed): what its
		// diagnostics named is all there is.
		p.records(-1)
		p.set.cutShort = "the test harness never printed its totals (Files=…, Tests=…): it was stopped, and the tests it had not run are not counted"
	}
}
