package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strconv"
	"strings"
)

var (
	// Run summaries: node's `# pass 4` (TAP) and `ℹ pass 4` (spec), tape's
	// `# pass  9` and `# fail  4`.
	reTAPCount   = lazyregexp.New(`^(?:# |ℹ )(tests|pass|fail|cancelled|skipped|skip|todo)\s+(\d+)$`)
	reTAPSubtest = lazyregexp.New(`^(\s*)# Subtest: (.+)$`)
	// A YAML diagnostic key at the block's own indentation.
	reTAPYAMLKey = lazyregexp.New(`^(\s*)([A-Za-z_][\w-]*):(?: (.*))?$`)
	reSpecAt     = lazyregexp.New(`^test at (\S+):(\d+):(\d+)$`)
	reSpecFail   = lazyregexp.New(`^✖ (.+?)(?: \([\d.]+m?s\))?$`)
	// A location in a failed point's `#` diagnostics: `file.c:12`, libuv's
	// `Assertion failed in /workspace/test/test-timer.c on line 100: …`,
	// `file line 12`.
	reTAPDiagLoc = lazyregexp.New(`(?:^|[\s(\[` + "`" + `'"])([\w./+-]*[\w-]\.[A-Za-z][A-Za-z+]{0,4})(?::(\d+)| on line (\d+)|,? line (\d+))`)
)

// nodeTestParser reads the output of node's built-in test runner: TAP (the
// default when output is not a terminal) and the spec reporter.
type nodeTestParser struct {
	lim    *Limits
	paths  *Paths
	set    *testSet
	fp     frameParser
	format string
	counts Counts
	any    bool
	// tap is set once the log shows TAP (a version line, a plan, a test
	// point); plain once it shows a producer other than node's runner or
	// node-tap: a stream without `TAP version`, a description without " - ".
	tap, plain bool
	// cur is the TAP stream being read (a log may hold several runs).
	cur tapStream
	// tm collects Test::More's failure diagnostics (Perl's TAP).
	tm testMoreDiags
	// harness reads the summary of Perl's TAP harness (prove): when a
	// harness ran the TAP, its totals are the run's account.
	harness *proveParser
	// tapSpec reads tap-spec's rendering of TAP (tape piped through it).
	tapSpec *tapSpecParser
	// TAP state: subtest names by indent, and the test point awaiting its YAML.
	names   []string
	pending *nodeTAPTest
	// kids[d] counts the test points seen at depth d or deeper since the
	// last point at depth d-1 (their parent); kidFail[d] says whether one
	// failed.
	kids    [maxTAPDepth + 2]int
	kidFail [maxTAPDepth + 2]bool
	inYAML  bool
	yamlKey string
	// streams are the members of a workspace run whose lines carry a
	// prefix (see memberLine), in the order they started.
	streams     map[string]*stream
	streamOrder []string
	// yamlIndent is the indentation of the YAML block's "---": its keys
	// are at the same one, deeper lines belong to the key above them.
	yamlIndent int
	// spec state: the "failing tests" section.
	inFailing bool
	spec      *jsBlock
	specFile  string
	specLine  int
}

// maxTAPDepth bounds the subtest nesting remembered for test names.
const maxTAPDepth = 32

type nodeTAPTest struct {
	t     Test
	suite bool
	// parent is a test point that closed a block of subtests: its outcome
	// is theirs, so it is not a test of its own unless it failed while
	// they all passed (a failing hook).
	parent    bool
	subFailed bool
	msg       msgBuf
	frames    frameList
	tap       tapDiag
	// at is the failed assertion's location from the YAML `at:`.
	at Frame
	// diag holds the `#` diagnostics a producer without YAML prints after
	// a failed point (libuv's runner: the exit code, the test's output, its
	// failed assertion); diagFile and diagLine are the first project
	// location they name.
	diag     msgBuf
	diagFile string
	diagLine int
}

func newNodeTestParser(lim *Limits, paths *Paths) *nodeTestParser {
	p := &nodeTestParser{lim: lim, paths: paths, set: newTestSet(lim), harness: newProveParser(lim, paths),
		tapSpec: newTapSpecParser(lim, paths)}
	p.fp.paths = paths
	return p
}

func (p *nodeTestParser) feed(ln line) {
	p.harness.feed(ln)
	p.tapSpec.feed(ln)
	t := ln.text
	if len(t) == 0 {
		return
	}
	if !p.tap && p.pending == nil && p.memberLine(ln) {
		return
	}
	if (t[0] == '#' || t[0] == 0xe2) && p.feedCount(t) {
		return
	}
	if p.feedTAPLine(ln) {
		return
	}
	if p.wantsTAP(t) && p.feedTAP(ln) {
		return
	}
	p.feedSpec(ln)
}

// wantsTAP decides whether feedTAP sees the line: in TAP output, or when
// the line mentions a test point or subtest. Without a pending test point
// feedTAP only accepts lines starting (after \s*) with one, so those are
// the only lines worth scanning for it.
func (p *nodeTestParser) wantsTAP(t []byte) bool {
	if p.tap {
		return true
	}
	if p.pending == nil {
		s := t[leadingSpace(t):]
		if !hasPrefix(s, "ok ") && !hasPrefix(s, "not ok ") && !hasPrefix(s, "# Subtest: ") && !hasPrefix(s, "1..") {
			return false
		}
	}
	return bytes.Contains(t, []byte("ok ")) || bytes.Contains(t, []byte("# Subtest: ")) || hasPrefix(t, "1..")
}

func (p *nodeTestParser) feedCount(t []byte) bool {
	m := reTAPCount.FindSubmatch(t)
	if m == nil {
		return false
	}
	n, _ := strconv.Atoi(string(m[2]))
	// Each run prints each count once: summed, two runs in one step
	// (`node --test a && node --test b`) count both.
	switch string(m[1]) {
	case "pass":
		p.counts.Passed += n
	case "fail", "cancelled":
		p.counts.Failed += n
	case "skipped", "skip", "todo":
		p.counts.Skipped += n
	}
	p.any = true
	if t[0] == 0xe2 && p.format == "" {
		p.format = FormatNodeSpec
	}
	p.set.seen = true
	return true
}

func (p *nodeTestParser) feedTAP(ln line) bool {
	t := ln.text
	if m := reTAPSubtest.FindSubmatch(t); m != nil {
		p.flushTAP()
		p.cur.subtests = true
		depth := len(m[1]) / 4
		if depth < maxTAPDepth {
			p.names = append(p.names[:min(depth, len(p.names))], string(m[2]))
		}
		return true
	}
	if pt, ok := matchTAPPoint(t, p.tap); ok {
		p.flushTAP()
		depth := pt.indent / 4
		if depth == 0 {
			p.topPoint(pt.num)
		}
		p.plain = p.plain || pt.plain
		name := pt.desc
		if name == "" {
			name = "#" + pt.num
		}
		path := append(append([]string{}, p.names[:min(depth, len(p.names))]...), name)
		if depth == 0 && p.cur.name != "" && !p.cur.subtests {
			path = []string{p.cur.name, name} // tape: the test's `# name` comment
		}
		tt := Test{Name: name, Suite: strings.Join(path[:len(path)-1], " > "), ID: strings.Join(path, " > "), Offset: ln.off}
		switch {
		case pt.directive != "":
			tt.Status = StatusSkipped
		case pt.ok:
			tt.Status = StatusPassed
		default:
			tt.Status = StatusFailed
		}
		p.pending = &nodeTAPTest{t: tt, msg: msgBuf{max: p.lim.MaxMessageBytes}, frames: frameList{max: p.lim.MaxFrames},
			diag: msgBuf{max: p.lim.MaxMessageBytes}}
		p.nest(p.pending, depth)
		p.set.seen = true
		return true
	}
	if n, depth, ok := matchTAPPlan(t); ok {
		if depth == 0 {
			p.topPlan(n)
		}
		return p.pending == nil || !p.inYAML
	}
	if p.pending == nil {
		return false
	}
	if t[0] == '#' && !p.inYAML && p.pending.t.Status.failing() {
		p.diagnostic(t)
		return true
	}
	s := bytes.TrimSpace(t)
	switch {
	case string(s) == "---":
		// node's and node-tap's keys are at the indentation of "---",
		// tape's two spaces deeper: the first key sets it.
		p.inYAML, p.yamlIndent = true, -1
		return true
	case string(s) == "...":
		p.inYAML = false
		p.flushTAP()
		return true
	case !p.inYAML:
		return false
	}
	if m := reTAPYAMLKey.FindSubmatch(t); m != nil && (p.yamlIndent < 0 || len(m[1]) == p.yamlIndent) {
		p.yamlIndent = len(m[1])
		p.yamlKey = string(m[2])
		p.yamlValue(strings.Trim(strings.TrimSpace(string(m[3])), `'"`))
		return true
	}
	switch p.yamlKey {
	case "error":
		p.pending.msg.add(s)
	case "diff":
		p.pending.tap.diff.add(s)
	case "found", "wanted", "failures":
		p.pending.tap.nested(s)
	case "expected", "actual":
		p.pending.tap.more(p.yamlKey, s)
	case "at":
		p.atNested(s)
	case "stack":
		if f, ok := p.fp.parse(t, false); ok {
			p.pending.frames.add(f)
		}
	}
	return true
}

// diagnostic keeps a `#` line after a failed point as its explanation,
// and the first project location it names.
func (p *nodeTestParser) diagnostic(t []byte) {
	x := p.pending
	s := bytes.TrimSpace(t[1:])
	if hasPrefix(s, "Looks like ") {
		return // Test::More's account of the whole run, not of this point
	}
	x.diag.add(s)
	if x.diagFile != "" || !bytes.Contains(s, []byte(".")) {
		return
	}
	for _, m := range reTAPDiagLoc.FindAllSubmatch(s, 4) {
		file, project := p.paths.Normalize(string(m[1]))
		if !project || !p.paths.Exists(file) {
			continue
		}
		for _, n := range m[2:] {
			if len(n) > 0 {
				x.diagFile, x.diagLine = file, atoi(n)
				return
			}
		}
	}
}

// yamlValue applies a top-level YAML diagnostic of the pending test point:
// node:test's type, location and error; node-tap's assertion (found,
// wanted, compare, diff) and thrown-error (tapCaught, type) keys.
func (p *nodeTestParser) yamlValue(v string) {
	x := p.pending
	switch p.yamlKey {
	case "type":
		x.suite = v == "suite"
		x.tap.errType = v
	case "location":
		if file, lineNo, ok := splitLoc(v); ok {
			x.t.File, _ = p.paths.Normalize(file)
			x.t.Line = lineNo
		}
	case "error":
		if v != "|-" && v != "|" && v != "" {
			x.msg.add([]byte(v))
		}
	case "at":
		p.atValue(v)
	default:
		x.tap.value(p.yamlKey, v)
	}
}

// nest links a test point to the subtests printed (indented) before it:
// TAP 14 prints a parent's point after its subtests' block. A point closes
// every deeper block, and counts as a descendant of every enclosing one,
// also when a subtest between them never printed its own point (a file
// tap killed at its timeout): a failure anywhere below a parent is the
// parent's failure, not one of its own.
func (p *nodeTestParser) nest(x *nodeTAPTest, depth int) {
	d := min(depth, maxTAPDepth)
	x.parent, x.subFailed = p.kids[d+1] > 0, p.kidFail[d+1]
	for i := d + 1; i < len(p.kids); i++ {
		p.kids[i], p.kidFail[i] = 0, false
	}
	for i := 0; i <= d; i++ {
		p.kids[i]++
		p.kidFail[i] = p.kidFail[i] || x.t.Status.failing()
	}
}

// flushTAP records the pending test point. Suites are not tests, and
// nested subtests are counted once: as themselves, not again in each parent.
func (p *nodeTestParser) flushTAP() {
	x := p.pending
	if x == nil {
		return
	}
	p.pending, p.inYAML, p.yamlKey = nil, false, ""
	if x.suite || x.parent && (x.subFailed || !x.t.Status.failing()) {
		return
	}
	t := x.t
	if t.Status.failing() {
		t.Message = x.msg.String()
		if t.Message == "" {
			t.Message, t.kind = x.tap.message(t.Name, p.lim.MaxMessageBytes)
		}
		if t.Message == "" {
			t.Message = x.diag.String()
		}
		t.Frames = x.frames.frames
		if x.at.Project && x.at.File != "" && x.at.Line > 0 {
			// The assertion's own call site (tape's and node-tap's `at:`).
			t.File, t.Line = x.at.File, x.at.Line
		} else if f, ok := firstProject(t.Frames); ok {
			t.File, t.Line = f.File, f.Line
		} else if x.diagFile != "" {
			t.File, t.Line = x.diagFile, x.diagLine
		}
	}
	p.set.add(t)
}

// feedSpec reads the spec reporter's "failing tests" section.
func (p *nodeTestParser) feedSpec(ln line) {
	t := ln.text
	if hasPrefix(t, "✖ failing tests:") {
		p.inFailing = true
		return
	}
	if !p.inFailing {
		return
	}
	if m := reSpecAt.FindSubmatch(t); m != nil {
		p.closeSpec()
		p.specFile, _ = p.paths.Normalize(string(m[1]))
		p.specLine, _ = strconv.Atoi(string(m[2]))
		return
	}
	if m := reSpecFail.FindSubmatch(t); m != nil && p.specFile != "" {
		// The spec reporter's failing-tests list names the test without its suites.
		tt := Test{Name: string(m[1]), File: p.specFile, Line: p.specLine, Status: StatusFailed, Offset: ln.off, ID: string(m[1])}
		p.spec = &jsBlock{test: tt, msg: msgBuf{max: p.lim.MaxMessageBytes}, frames: frameList{max: p.lim.MaxFrames}}
		p.specFile = ""
		return
	}
	if p.spec == nil {
		return
	}
	if f, ok := p.fp.parse(t, false); ok {
		p.spec.frames.add(f)
		p.spec.stack = true
		return
	}
	if !p.spec.stack {
		p.spec.msg.add(bytes.TrimSpace(t))
	}
}

func (p *nodeTestParser) closeSpec() {
	b := p.spec
	if b == nil {
		return
	}
	p.spec = nil
	t := b.result()
	p.set.add(t)
}

func (p *nodeTestParser) finish() {
	p.flushTAP()
	p.closeSpec()
	p.endStream()
	p.tm.locate(p.set, p.paths)
	defer p.finishStreams()
	if p.useHarness() || p.useTapSpec() {
		return
	}
	// node's own `# tests` also counts every parent test; the TAP points,
	// counted once each, are the truth when there are any.
	if p.any && !(p.tap && p.set.counts.Total() > 0) {
		c := p.counts
		p.set.summary = &c
	}
	switch {
	case p.tap && p.plain:
		p.format = FormatTAP
	case p.tap:
		p.format = FormatNodeTAP
	case p.format == "":
		p.format = FormatNodeSpec
	}
}

// splitLoc splits `/w/test/x.js:12:3` into file and line.
func splitLoc(s string) (string, int, bool) {
	parts := strings.Split(s, ":")
	if len(parts) < 3 {
		return "", 0, false
	}
	n, err := strconv.Atoi(parts[len(parts)-2])
	if err != nil {
		return "", 0, false
	}
	return strings.Join(parts[:len(parts)-2], ":"), n, true
}
