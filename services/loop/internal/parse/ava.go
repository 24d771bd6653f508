package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strconv"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// FormatAVA is AVA's default reporter as it prints without a terminal (its
// verbose mode, AVA 3 to 6): a result line per test, the failures' details
// after a `─` rule, then the summary.
const FormatAVA = "ava"

// AVA's marks, as the figures package prints them on a Unicode terminal
// (figures 3: ✖, figures 4 and later: ✘) and in its fallback set.
const (
	avaTick       = "✔"
	avaTickASCII  = "√"
	avaCross3     = "✖"
	avaCross      = "✘"
	avaCrossASCII = "×"
	avaPointer    = "›"
	avaPointerFB  = "»"
	avaRule       = "─"
	avaPending    = "◌"
)

var (
	// The summary after the last rule: `  6 tests failed`, `  8 tests
	// passed` (only when nothing failed), `  1 known failure`, `  1 test
	// skipped`, `  1 test todo`, `  1 hook failed`, `  1 uncaught
	// exception`, `  1 unhandled rejection`, `  1 test remained pending
	// after a timeout`.
	reAVACount = lazyregexp.New(`^  (\d+) (tests? failed|tests? passed|known failures?|tests? skipped|tests? todo|hooks? failed|uncaught exceptions?|unhandled rejections?|tests? remained pending after a timeout)$`)
	// A test file's worker that died: `  ✖ test/x.js exited with a
	// non-zero exit code: 1`, `… exited due to SIGKILL`, `… exited due to
	// an error:`.
	reAVAExited = lazyregexp.New(`^  (?:✖|✘|×) (\S+) (exited (?:with a non-zero exit code: \d+|due to \S+|due to an error:))`)
	// `  1 tests were pending in test/x.js` after `✖ Timed out while
	// running tests`; each pending test follows as `  ◌ title`.
	reAVAPendingIn = lazyregexp.New(`^  \d+ tests? (?:were|was) pending in (\S+)$`)
	// The failing line AVA names before its code excerpt: `  test/calc.js:6`.
	reAVASource = lazyregexp.New(`^  (\S+\.(?:[cm]?[jt]sx?)):(\d+)$`)
	// A code excerpt line: `   5: test('adds', t => {`.
	reAVAExcerpt = lazyregexp.New(`^ {2,}\d+: `)
	// A slow test's duration after its title: ` (101ms)`, ` (1.2s)`, ` (1m 3s)`.
	reAVADuration = lazyregexp.New(` \((?:\d+(?:\.\d+)?(?:ms|s|m|h|d) ?)+\)$`)
)

// avaKind is what a result line says about its test.
type avaKind int

const (
	avaPass avaKind = iota
	avaFail
	avaExpectedFail // test.failing that failed: AVA's "known failure"
	avaSkip
)

// avaResult is one result line: its kind and the text after the mark (the
// title, followed on a failure by the error's message).
type avaResult struct {
	kind avaKind
	text string
	off  int64
	// block is true once a failure section named this result.
	block bool
}

// avaBlock is one failure section or inline error report being read.
type avaBlock struct {
	jsBlock
	// res is the index of the failing result line it details, -1 for an
	// uncaught exception or unhandled rejection.
	res     int
	file    string // the test file of an uncaught exception/rejection
	source  Frame  // AVA's `file:line` before the excerpt (fallback location)
	excerpt int    // where the block is in AVA's code excerpt (avaNoExcerpt…)
}

// Where a block is in the code excerpt AVA prints after its source line: a
// blank line, the numbered lines, a blank line.
const (
	avaNoExcerpt = iota
	avaAfterSource
	avaInExcerpt
)

// avaParser reads AVA's verbose reporter. Records and counts are kept per
// run and committed only when the run's summary was read, so ✔ lines of
// other reporters (mocha's spec, tap-spec) never count as AVA's.
type avaParser struct {
	lim   *Limits
	paths *Paths
	set   *testSet
	fp    frameParser

	results []avaResult
	blocks  []*avaBlock
	block   *avaBlock
	// rules is how many `─` rules the run printed: failure sections come
	// after the first when the run failed, the summary after the last.
	rules int
	// blank: the line just read was blank (a failure section's title
	// follows one).
	blank bool
	// summary holds the counts read from the summary lines; inSummary is
	// true while they are being read.
	summary   map[string]int
	inSummary bool
	// expectedFailMark: the run marks known failures (`✔ [expected
	// fail]`, AVA 5 and later); before that they print as ✔.
	expectedFailMark bool
	exited           []avaExit
	pendingFile      string
	pending          []Test
}

// avaExit is a test file's worker that died.
type avaExit struct {
	file, why string
	off       int64
}

func newAVAParser(lim *Limits, paths *Paths) *avaParser {
	p := &avaParser{lim: lim, paths: paths, set: newTestSet(lim)}
	p.fp.paths = paths
	return p
}

func (p *avaParser) feed(ln line) {
	t := ln.text
	if leadingSpace(t) == len(t) {
		if b := p.block; b != nil && b.excerpt == avaInExcerpt {
			b.excerpt = avaNoExcerpt // the blank line after the excerpt
		}
		p.blank = true
		return
	}
	wasBlank := p.blank
	p.blank = false
	if len(t) < 3 || t[0] != ' ' || t[1] != ' ' {
		return // AVA indents everything it prints by two spaces
	}
	p.line(t, ln.off, wasBlank)
}

// line handles a non-blank line indented as AVA indents; afterBlank says
// whether a blank line came before it.
func (p *avaParser) line(t []byte, off int64, afterBlank bool) {
	if p.inSummary {
		if p.count(t) {
			return
		}
		p.commit() // whatever follows the summary is not this run's
	}
	s := t[2:]
	switch {
	case s[0] == ' ':
		p.blockLine(t)
		return
	case string(bytes.TrimSpace(s)) == avaRule:
		p.closeBlock()
		p.rules++
		return
	}
	if p.resultLine(s, off) {
		return
	}
	if p.rules > 0 && isDigit(s[0]) && p.count(t) {
		p.closeBlock()
		p.inSummary = true
		return
	}
	if p.otherLine(t, s, off, afterBlank) {
		return
	}
	p.blockLine(t)
}

// resultLine reads `✔ title`, `✔ [expected fail] title`, `✖ title message`
// (AVA 3), `✘ title message` (AVA 4), `✘ [fail]: title message` (AVA 5
// and later), `- title` and `- [skip] title` / `- [todo] title`.
func (p *avaParser) resultLine(s []byte, off int64) bool {
	if p.rules > 0 {
		return false // failure sections: `  - 5` is a diff line there
	}
	var r avaResult
	switch {
	case hasPrefix(s, avaTick+" ") || hasPrefix(s, avaTickASCII+" "):
		_, rest, _ := bytes.Cut(s, []byte(" "))
		r = avaResult{kind: avaPass, text: string(reAVADuration.ReplaceAll(rest, nil))}
		if after, ok := bytes.CutPrefix(rest, []byte("[expected fail] ")); ok {
			r = avaResult{kind: avaExpectedFail, text: string(after)}
			p.expectedFailMark = true
		}
	case hasPrefix(s, avaCross3+" ") || hasPrefix(s, avaCross+" ") || hasPrefix(s, avaCrossASCII+" "):
		_, rest, _ := bytes.Cut(s, []byte(" "))
		for _, mark := range []string{"[fail]: ", "[unexpected pass]: "} {
			rest = bytes.TrimPrefix(rest, []byte(mark))
		}
		if reAVAExited.Match(append([]byte("  "), s...)) || hasPrefix(rest, "Timed out while running tests") ||
			hasPrefix(rest, "Exiting due to") || hasPrefix(rest, "Internal error") || hasPrefix(rest, "No tests found in") ||
			hasPrefix(rest, "Couldn’t find any") || hasPrefix(rest, "Error in shared worker") || bytes.Contains(rest, []byte(" remaining in ")) ||
			hasPrefix(rest, "Line numbers for ") || hasPrefix(rest, "Based on your configuration") {
			return false // the reporter's own notices, not a test
		}
		r = avaResult{kind: avaFail, text: string(bytes.TrimRight(rest, " "))}
	case hasPrefix(s, "- "):
		rest := s[2:]
		for _, mark := range []string{"[skip] ", "[todo] "} {
			rest = bytes.TrimPrefix(rest, []byte(mark))
		}
		r = avaResult{kind: avaSkip, text: string(rest)}
	default:
		return false
	}
	p.closeBlock()
	r.off = off
	if len(p.results) < p.lim.MaxTests+p.lim.MaxFailures {
		p.results = append(p.results, r)
	}
	return true
}

// otherLine handles the reporter's notices at the run level: inline
// uncaught exceptions and unhandled rejections, dead workers, the timeout
// and its pending tests, and failure sections' titles.
func (p *avaParser) otherLine(t, s []byte, off int64, afterBlank bool) bool {
	switch {
	case hasPrefix(s, "Uncaught exception in ") || hasPrefix(s, "Unhandled rejection in "):
		p.closeBlock()
		_, file, _ := bytes.Cut(s, []byte(" in "))
		p.block = p.newBlock(Test{ID: string(s), Name: string(s), Status: StatusError, Offset: off}, -1)
		p.block.file, _ = p.paths.Normalize(string(file))
		return true
	case s[0] == 0xE2 || s[0] == 0xC3: // ✖ ✘ ◌ ×
		if m := reAVAExited.FindSubmatch(t); m != nil {
			p.closeBlock()
			file, _ := p.paths.Normalize(string(m[1]))
			p.exited = append(p.exited, avaExit{file: file, why: string(m[2]), off: off})
			return true
		}
		if rest, ok := bytes.CutPrefix(s, []byte(avaPending+" ")); ok {
			p.pending = append(p.pending, Test{ID: string(rest), Name: string(rest), Status: StatusFailed, File: p.pendingFile, Offset: off,
				Message: "still running when AVA's timeout stopped the run (Timed out while running tests)", kind: glv1.FailureKind_FAILURE_KIND_TIMEOUT})
			return true
		}
	case isDigit(s[0]):
		if m := reAVAPendingIn.FindSubmatch(t); m != nil {
			p.pendingFile, _ = p.paths.Normalize(string(m[1]))
			return true
		}
	}
	if p.rules == 1 && afterBlank {
		if i := p.failedResult(string(bytes.TrimRight(s, " "))); i >= 0 {
			p.closeBlock()
			p.results[i].block = true
			title := string(bytes.TrimRight(s, " "))
			p.block = p.newBlock(Test{ID: title, Status: StatusFailed, Offset: off}, i)
			p.block.test.Suite, p.block.test.Name = avaSplit(title)
			return true
		}
	}
	return false
}

// failedResult returns the index of the failing result line a failure
// section's title names: the line is the title, or the title then the
// error's message. An exact match wins over a prefix.
func (p *avaParser) failedResult(title string) int {
	found := -1
	for i, r := range p.results {
		if r.kind != avaFail || r.block {
			continue
		}
		if r.text == title {
			return i
		}
		if found < 0 && strings.HasPrefix(r.text, title+" ") {
			found = i
		}
	}
	return found
}

func (p *avaParser) newBlock(t Test, result int) *avaBlock {
	return &avaBlock{jsBlock: jsBlock{test: t, msg: msgBuf{max: p.lim.MaxMessageBytes}, frames: frameList{max: p.lim.MaxFrames}}, res: result}
}

// blockLine adds a line to the open section: AVA's source line and code
// excerpt, its beautified stack (`› file:line:col`), a native stack, or
// message text.
func (p *avaParser) blockLine(t []byte) {
	b := p.block
	if b == nil {
		return
	}
	if b.source.File == "" && !b.stack {
		if m := reAVASource.FindSubmatch(t); m != nil {
			b.source = p.fp.frame(string(m[1]), m[2], nil, "")
			b.excerpt = avaAfterSource
			return
		}
	}
	if b.excerpt != avaNoExcerpt {
		if reAVAExcerpt.Match(t) {
			b.excerpt = avaInExcerpt
			return
		}
		b.excerpt = avaNoExcerpt
	}
	s := bytes.TrimSpace(t)
	for _, ptr := range []string{avaPointer + " ", avaPointerFB + " "} {
		if rest, ok := bytes.CutPrefix(s, []byte(ptr)); ok {
			if f, ok := p.fp.parse(append([]byte("  "), rest...), false); ok {
				b.frames.add(f)
				b.stack = true
			}
			return
		}
	}
	if f, ok := p.fp.parse(t, false); ok {
		b.frames.add(f)
		b.stack = true
		return
	}
	if !b.stack {
		b.msg.add(s)
	}
}

// closeBlock keeps the open section for the run's commit.
func (p *avaParser) closeBlock() {
	if p.block == nil {
		return
	}
	if len(p.blocks) < p.lim.MaxFailures {
		p.blocks = append(p.blocks, p.block)
	}
	p.block = nil
}

// count reads one summary line.
func (p *avaParser) count(t []byte) bool {
	m := reAVACount.FindSubmatch(t)
	if m == nil {
		return false
	}
	if p.summary == nil {
		p.summary = map[string]int{}
	}
	n, _ := strconv.Atoi(string(m[1]))
	what := string(m[2])
	for _, w := range []string{"failed", "passed", "known", "skipped", "todo", "hook", "uncaught", "unhandled", "pending"} {
		if strings.Contains(what, w) {
			if w == "failed" && strings.Contains(what, "hook") {
				continue
			}
			p.summary[w] += n
			break
		}
	}
	return true
}

// commit adds the run read so far to the set, if its summary was read.
func (p *avaParser) commit() {
	p.closeBlock()
	if p.summary != nil {
		p.commitRun()
	}
	*p = avaParser{lim: p.lim, paths: p.paths, set: p.set, fp: p.fp}
}

func (p *avaParser) commitRun() {
	sum := p.summary
	passLines := 0
	for _, r := range p.results {
		if r.kind == avaPass {
			passLines++
		}
	}
	known := sum["known"]
	passed := sum["passed"]
	if passed == 0 {
		passed = passLines
		if !p.expectedFailMark {
			passed = max(0, passed-known) // AVA 3 and 4 print a known failure as ✔
		}
	}
	// Failure sections first (they hold the messages and places), then the
	// failing results no section named, then the rest.
	errFiles := map[string]bool{}
	for _, b := range p.blocks {
		t := b.result()
		if _, ok := firstProject(t.Frames); !ok && b.source.File != "" {
			t.File, t.Line = b.source.File, b.source.Line
			t.Frames = append(t.Frames, b.source)
		}
		t.kind = avaFailureKind(t.Message)
		if b.res < 0 {
			errFiles[b.file] = true
			t.Suite = b.file
			if t.File == "" {
				t.File = b.file
			}
			t.kind = glv1.FailureKind_FAILURE_KIND_CRASH
		}
		p.set.add(t)
	}
	for _, r := range p.results {
		t := Test{ID: r.text, Offset: r.off}
		t.Suite, t.Name = avaSplit(r.text)
		switch {
		case r.kind == avaFail && r.block:
			continue
		case r.kind == avaFail:
			t.Status = StatusFailed
		case r.kind == avaPass:
			t.Status = StatusPassed
		default:
			t.Status = StatusSkipped
		}
		p.set.add(t)
	}
	unfinished := 0
	for _, t := range p.pending {
		p.set.unfinished(t)
		unfinished++
	}
	dead := 0
	for _, e := range p.exited {
		if errFiles[e.file] {
			continue // its uncaught exception is the record
		}
		dead++
		p.set.add(Test{ID: e.file + " " + e.why, Suite: e.file, Name: e.why, Status: StatusError, File: e.file, Offset: e.off,
			Message: "AVA's worker for " + e.file + " " + e.why, kind: glv1.FailureKind_FAILURE_KIND_CRASH})
	}
	p.set.addSummary(Counts{
		Passed:     passed,
		Failed:     sum["failed"] + sum["hook"] + max(unfinished, sum["pending"]),
		Skipped:    sum["skipped"] + sum["todo"] + known,
		Errors:     sum["uncaught"] + sum["unhandled"] + dead,
		Unfinished: unfinished,
	})
}

// avaFailureKind classifies a failure section: AVA names the failures that
// are not an assertion's (`Error thrown in test:`, `Rejected promise
// returned by test. Reason:`, the same for hooks); every other section is
// an assertion of t.is, t.deepEqual, t.true…, whose message (`Difference:`,
// `Value is not truthy:`) names no assertion.
func avaFailureKind(msg string) glv1.FailureKind {
	for _, m := range []string{"Error thrown in ", "Rejected promise returned by ", "Error thrown in hook", "Uncaught exception", "never resolved"} {
		if strings.Contains(msg, m) {
			return glv1.FailureKind_FAILURE_KIND_TEST_ERROR
		}
	}
	return glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION
}

// avaSplit cuts a title `dir › file › title` into the file part and the
// test's own title.
func avaSplit(title string) (suite, name string) {
	if i := strings.LastIndex(title, " "+avaPointer+" "); i >= 0 {
		return title[:i], title[i+len(avaPointer)+2:]
	}
	return "", title
}

func (p *avaParser) finish() { p.commit() }
