package parse

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// FormatTAP is TAP from a producer other than node's runner or node-tap
// (which print `TAP version` first and ` - ` before every description):
// tape, Perl's Test::More, bats, any TAP emitter.
const FormatTAP = "tap"

// tapStream is one TAP stream of a log: a step may run several producers
// (`npm run test:a && npm run test:b`, one Perl test file after another),
// each with its own plan and numbering.
type tapStream struct {
	// version: the stream began with `TAP version N`.
	version bool
	// subtests: a `# Subtest:` was seen (node, node-tap, Test::More).
	subtests bool
	// plan is the `1..N` count (-1: none yet); planFirst says it came
	// before the first test point.
	plan      int
	planFirst bool
	// points counts the top-level test points.
	points int
	// name is tape's current test: the `# name` comment before its
	// assertions.
	name   string
	bailed bool
}

// tapPoint is one `ok`/`not ok` line.
type tapPoint struct {
	indent    int
	ok        bool
	num, desc string
	// directive is "skip" or "todo" ("" for none, and for node-tap's
	// `# time=` on a parent's point).
	directive string
	// plain: a description without TAP's " - " (tape, bats).
	plain bool
}

// matchTAPPoint reads a test point: `ok 1 - name`, `not ok 2 name # TODO
// why`, `ok 3 # skip why`, `ok 4`. A description without TAP's " - "
// (tape's and bats' `ok 1 should be equal`) is taken only when relaxed,
// inside a log already known to be TAP: outside one, `ok 3 things` is
// too plain a phrase.
func matchTAPPoint(t []byte, relaxed bool) (tapPoint, bool) {
	var pt tapPoint
	pt.indent = leadingSpace(t)
	s := t[pt.indent:]
	switch {
	case hasPrefix(s, "ok "):
		pt.ok, s = true, s[3:]
	case hasPrefix(s, "not ok "):
		s = s[7:]
	default:
		return pt, false
	}
	j := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == 0 || j > 9 || j < len(s) && s[j] != ' ' {
		return pt, false
	}
	pt.num = string(s[:j])
	desc, dir := splitTAPDirective(bytes.TrimLeft(s[j:], " "))
	dashed := hasPrefix(desc, "- ") || string(desc) == "-"
	if dashed {
		desc = bytes.TrimLeft(desc[1:], " ")
	}
	if len(desc) > 0 && !dashed && !relaxed {
		return pt, false
	}
	pt.plain = len(desc) > 0 && !dashed
	pt.desc = strings.ReplaceAll(string(bytes.TrimSpace(desc)), `\#`, "#")
	pt.directive = dir
	return pt, true
}

// splitTAPDirective cuts a point's directive off its description: a `#`
// after a space (or first), then SKIP… or TODO in any case, or node-tap's
// `time=`. Other `#`s are part of the description.
func splitTAPDirective(rest []byte) (desc []byte, dir string) {
	for k := 0; k < len(rest); k++ {
		if rest[k] != '#' || k > 0 && rest[k-1] != ' ' {
			continue
		}
		w := bytes.ToLower(bytes.TrimLeft(rest[k+1:], " "))
		switch {
		case hasPrefix(w, "skip"):
			dir = "skip"
		case hasPrefix(w, "todo") && (len(w) == 4 || w[4] == ' ' || w[4] == ':'):
			dir = "todo"
		case hasPrefix(w, "time="):
		default:
			continue
		}
		return bytes.TrimRight(rest[:k], " "), dir
	}
	return rest, ""
}

// matchTAPPlan reads a plan line `1..N` (optionally `1..0 # SKIP why`)
// and its nesting depth.
func matchTAPPlan(t []byte) (n, depth int, ok bool) {
	i := leadingSpace(t)
	s := t[i:]
	if !hasPrefix(s, "1..") {
		return 0, 0, false
	}
	j := 3
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == 3 || j > 12 {
		return 0, 0, false
	}
	if rest := bytes.TrimLeft(s[j:], " "); len(rest) > 0 && rest[0] != '#' {
		return 0, 0, false
	}
	n, _ = strconv.Atoi(string(s[3:j]))
	return n, i / 4, true
}

// feedTAPLine takes the TAP lines that are not test points: the version
// line and `Bail out!`, which start a stream or end the run, and comments
// (tape's test names, Test::More's failure diagnostics).
func (p *nodeTestParser) feedTAPLine(ln line) bool {
	t := ln.text
	switch t[0] {
	case 'T':
		if string(t) == "TAP version 13" || string(t) == "TAP version 14" {
			p.flushTAP()
			p.endStream()
			p.cur = tapStream{version: true, plan: -1}
			p.tap = true
			p.set.seen = true
			return true
		}
	case 'B':
		if hasPrefix(t, "Bail out!") {
			p.bailOut(ln, strings.TrimSpace(string(t[len("Bail out!"):])))
			return true
		}
	case '#':
		return p.feedComment(ln)
	case ' ':
		// Test::More indents a subtest's diagnostics with its TAP.
		if !p.inYAML {
			if s := t[leadingSpace(t):]; len(s) > 0 && s[0] == '#' {
				return p.tm.feed(s)
			}
		}
	}
	p.tm.end()
	return false
}

// feedComment reads a top-level comment: Test::More's failure
// diagnostics, or tape's test name (`# add`), which names the assertions
// that follow it. Node's and node-tap's `# Subtest:` is left to feedTAP.
func (p *nodeTestParser) feedComment(ln line) bool {
	t := ln.text
	if p.tm.feed(t) {
		return true
	}
	if hasPrefix(t, "# Subtest: ") {
		return false
	}
	if !p.tap || !p.cur.version || p.cur.subtests || len(t) < 3 || t[1] != ' ' || t[2] == ' ' {
		return false
	}
	name := string(bytes.TrimSpace(t[2:]))
	switch {
	case name == "ok", hasPrefix(t, "# time="), hasPrefix(t, "# SKIP "):
		return true // tape's trailer and its skipped tests (which print no point)
	case strings.HasPrefix(name, "TODO "):
		name = strings.TrimPrefix(name, "TODO ")
	}
	p.cur.name = name
	return true
}

// topPoint counts a top-level test point of the current stream; a point
// after the stream's closing plan, or a second point numbered 1, starts
// the next stream (TAP printed by one producer after another).
func (p *nodeTestParser) topPoint(num string) {
	c := &p.cur
	if c.plan >= 0 && !c.planFirst || num == "1" && c.points > 0 {
		p.endStream()
		p.cur = tapStream{plan: -1}
	}
	p.tap = true
	p.plain = p.plain || !p.cur.version
	p.cur.points++
}

// topPlan records a top-level plan; a second plan starts the next stream.
func (p *nodeTestParser) topPlan(n int) {
	if p.cur.plan >= 0 {
		p.endStream()
		p.cur = tapStream{plan: -1}
	}
	p.tap = true
	p.plain = p.plain || !p.cur.version
	p.set.seen = true
	p.cur.plan, p.cur.planFirst = n, p.cur.points == 0
}

// endStream checks the stream that ends against its plan: a producer that
// died (tape has no handler for an exception thrown outside an assertion)
// leaves a stream without its plan, or with fewer points than planned.
func (p *nodeTestParser) endStream() {
	c := p.cur
	if c.bailed || p.set.cutShort != "" {
		return
	}
	switch {
	case c.points > 0 && c.plan < 0:
		p.set.cutShort = fmt.Sprintf("a TAP stream ended after %d test point(s) without its plan (the `1..N` line a finished run prints): "+
			"the test process died, and tests it had not run yet are not counted", c.points)
	case c.plan > c.points:
		p.set.cutShort = fmt.Sprintf("a TAP plan announced %d tests but %d ran: the test process died, and the tests it had not run are not counted", c.plan, c.points)
	}
}

// bailOut records a producer's `Bail out!`: the run stopped there, an
// error of its own.
func (p *nodeTestParser) bailOut(ln line, why string) {
	p.flushTAP()
	p.tap = true
	p.cur.bailed = true
	msg := "Bail out!"
	if why != "" {
		msg += " " + why
	}
	p.set.add(Test{ID: "Bail out!", Name: "Bail out!", Status: StatusError, Message: msg, Offset: ln.off})
	if p.set.incomplete == "" {
		p.set.incomplete = bailedOut(msg)
	}
}

// bailedOut is the incomplete-counts reason of a run that bailed out.
func bailedOut(msg string) string {
	return "the test run stopped at a `" + msg + "`: the tests after it never ran and are not counted"
}

// atValue reads tape's `at: Test.<anonymous> (/w/test/x.js:12:5)`, the
// failed assertion's call site. node-tap's `at:` is a map (atNested).
func (p *nodeTestParser) atValue(v string) {
	if v == "" {
		return
	}
	if f, ok := p.fp.parse([]byte("    at "+v), false); ok {
		p.pending.at = f
	}
}

// atNested reads node-tap's `at:` map (`line: 14`, `file: test/x.js`).
func (p *nodeTestParser) atNested(s []byte) {
	x := p.pending
	if v, ok := bytes.CutPrefix(s, []byte("line: ")); ok {
		x.at.Line, _ = strconv.Atoi(string(v))
	} else if v, ok := bytes.CutPrefix(s, []byte("file: ")); ok {
		x.at.File, x.at.Project = p.paths.Normalize(strings.Trim(string(v), `'"`))
	}
}
