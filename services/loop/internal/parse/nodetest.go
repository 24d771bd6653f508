package parse

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
)

var (
	reTAPCount = regexp.MustCompile(`^(?:# |ℹ )(tests|pass|fail|cancelled|skipped|todo) (\d+)$`)
	// A test point; node-tap ends every parent's with a "# time=…" directive.
	reTAPPoint   = regexp.MustCompile(`^(\s*)(not ok|ok) (\d+)(?: - (.*?))?(?: # ((?i:SKIP|TODO))\b.*| # time=\S+)?$`)
	reTAPSubtest = regexp.MustCompile(`^(\s*)# Subtest: (.+)$`)
	// A YAML diagnostic key at the block's own indentation.
	reTAPYAMLKey = regexp.MustCompile(`^(\s*)([A-Za-z_][\w-]*):(?: (.*))?$`)
	reSpecAt     = regexp.MustCompile(`^test at (\S+):(\d+):(\d+)$`)
	reSpecFail   = regexp.MustCompile(`^✖ (.+?)(?: \([\d.]+m?s\))?$`)
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
}

func newNodeTestParser(lim *Limits, paths *Paths) *nodeTestParser {
	p := &nodeTestParser{lim: lim, paths: paths, set: newTestSet(lim)}
	p.fp.paths = paths
	return p
}

func (p *nodeTestParser) feed(ln line) {
	t := ln.text
	if len(t) == 0 {
		return
	}
	if p.format != FormatNodeTAP && p.pending == nil && p.memberLine(ln) {
		return
	}
	if (t[0] == '#' || t[0] == 0xe2) && p.feedCount(t) {
		return
	}
	if string(t) == "TAP version 13" || string(t) == "TAP version 14" {
		p.format = FormatNodeTAP
		p.set.seen = true
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
	if p.format == FormatNodeTAP {
		return true
	}
	if p.pending == nil {
		s := t[leadingSpace(t):]
		if !hasPrefix(s, "ok ") && !hasPrefix(s, "not ok ") && !hasPrefix(s, "# Subtest: ") {
			return false
		}
	}
	return bytes.Contains(t, []byte("ok ")) || bytes.Contains(t, []byte("# Subtest: "))
}

func (p *nodeTestParser) feedCount(t []byte) bool {
	m := reTAPCount.FindSubmatch(t)
	if m == nil {
		return false
	}
	n, _ := strconv.Atoi(string(m[2]))
	switch string(m[1]) {
	case "pass":
		p.counts.Passed = n
	case "fail", "cancelled":
		p.counts.Failed += n
	case "skipped", "todo":
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
		depth := len(m[1]) / 4
		if depth < maxTAPDepth {
			p.names = append(p.names[:min(depth, len(p.names))], string(m[2]))
		}
		return true
	}
	if m := reTAPPoint.FindSubmatch(t); m != nil {
		p.flushTAP()
		depth := len(m[1]) / 4
		name := string(m[4])
		if name == "" {
			name = "#" + string(m[3])
		}
		path := append(append([]string{}, p.names[:min(depth, len(p.names))]...), name)
		tt := Test{Name: name, Suite: strings.Join(path[:len(path)-1], " > "), ID: strings.Join(path, " > "), Offset: ln.off}
		switch {
		case len(m[5]) > 0:
			tt.Status = StatusSkipped
		case string(m[2]) == "ok":
			tt.Status = StatusPassed
		default:
			tt.Status = StatusFailed
		}
		p.pending = &nodeTAPTest{t: tt, msg: msgBuf{max: p.lim.MaxMessageBytes}, frames: frameList{max: p.lim.MaxFrames}}
		p.nest(p.pending, depth)
		p.set.seen = true
		return true
	}
	if p.pending == nil {
		return false
	}
	s := bytes.TrimSpace(t)
	switch {
	case string(s) == "---":
		p.inYAML, p.yamlIndent = true, leadingSpace(t)
		return true
	case string(s) == "...":
		p.inYAML = false
		p.flushTAP()
		return true
	case !p.inYAML:
		return false
	}
	if m := reTAPYAMLKey.FindSubmatch(t); m != nil && len(m[1]) == p.yamlIndent {
		p.yamlKey = string(m[2])
		p.yamlValue(strings.Trim(string(m[3]), `'"`))
		return true
	}
	switch p.yamlKey {
	case "error":
		p.pending.msg.add(s)
	case "diff":
		p.pending.tap.diff.add(s)
	case "found", "wanted", "failures":
		p.pending.tap.nested(s)
	case "stack":
		if f, ok := p.fp.parse(t, false); ok {
			p.pending.frames.add(f)
		}
	}
	return true
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
		t.Frames = x.frames.frames
		if f, ok := firstProject(t.Frames); ok {
			t.File, t.Line = f.File, f.Line
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
	defer p.finishStreams()
	// node's own `# tests` also counts every parent test; the TAP points,
	// counted once each, are the truth when there are any.
	if p.any && !(p.format == FormatNodeTAP && p.set.counts.Total() > 0) {
		c := p.counts
		p.set.summary = &c
	}
	if p.format == "" {
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
