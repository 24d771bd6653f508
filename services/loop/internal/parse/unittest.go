package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strconv"
	"strings"
)

var (
	// A verbose result: `test_add (tests.test_calc.CalcTest.test_add) ... ok`
	// (Python ≥ 3.11) or `test_add (tests.test_calc.CalcTest) ... ok`
	// (≤ 3.10), a subtest `  test_x (m.C.test_x) (n=2) ... FAIL`, or just the
	// name when a docstring line or the test's own output follows.
	reUnittestName = lazyregexp.New(`^\s*(\S+) \(([\w.]+)\)( \(.*?\))?(?: \.\.\. |$)`)
	// A failure block header: `FAIL: test_x (m.C.test_x) (n=-2)`, or with a
	// subTest message: `ERROR: test_valid (m.C.test_valid) [five-quotes]`.
	reUnittestBlock = lazyregexp.New(`^(FAIL|ERROR|UNEXPECTED SUCCESS): (\S+) \(([\w.]+)\)(?: \[.*?\])?(?: \(.*\))?$`)
	reUnittestRan   = lazyregexp.New(`^Ran (\d+) tests? in [\d.]+s$`)
	reUnittestEnd   = lazyregexp.New(`^(OK|FAILED)(?: \((.*)\))?$`)
)

// unittestSep is the width of unittest's `=====` and `-----` rules.
const unittestSep = 70

// unittestParser reads Python unittest output: the verbose per-test lines,
// the failure blocks (`FAIL: test (id)` + traceback) and the summary
// (`Ran N tests` then `OK`/`FAILED (failures=1, errors=2)`).
type unittestParser struct {
	lim   *Limits
	paths *Paths
	set   *testSet
	fp    frameParser
	// pending is the verbose test whose outcome is not printed yet (its
	// docstring or its own output came first).
	pending    string
	pendingOff int64
	lastID     string
	// block is the failure block being read.
	block    *unittestBlock
	ran      int
	sawRan   bool
	lastFail string
	dupFail  int
	lastErr  string
	dupErr   int
}

type unittestBlock struct {
	t      Test
	frames frameList
	msg    msgBuf
	body   bool
}

func newUnittestParser(lim *Limits, paths *Paths) *unittestParser {
	p := &unittestParser{lim: lim, paths: paths, set: newTestSet(lim)}
	p.fp.paths = paths
	return p
}

func (p *unittestParser) feed(ln line) {
	t := ln.text
	if len(t) == 0 {
		return
	}
	switch {
	case len(t) == unittestSep && (t[0] == '=' || t[0] == '-') && bytes.Count(t, t[:1]) == unittestSep:
		p.rule(t[0])
		return
	case p.block != nil:
		p.feedBlock(ln)
		return
	case t[0] == 'R' && hasPrefix(t, "Ran "):
		if m := reUnittestRan.FindSubmatch(t); m != nil {
			p.ran, _ = strconv.Atoi(string(m[1]))
			p.sawRan = true
			p.set.seen = true
		}
		return
	case p.sawRan && (t[0] == 'O' || t[0] == 'F' || t[0] == 'N'):
		p.summary(t)
		return
	}
	p.feedResult(ln)
}

// feedResult reads verbose result lines. Python 3.10 prints a test with
// subtests as `name (id) ... ` and the next test on the same line, so a line
// may hold several results.
func (p *unittestParser) feedResult(ln line) {
	t := ln.text
	if p.pending != "" {
		if st, ok := unittestOutcome(bytes.TrimSpace(t)); ok {
			p.result(p.pending, st, p.pendingOff)
			return
		}
		if i := bytes.LastIndex(t, []byte(" ... ")); i >= 0 && reUnittestName.Find(t) == nil {
			if st, ok := unittestOutcome(t[i+5:]); ok { // `Docstring line ... ok`
				p.result(p.pending, st, p.pendingOff)
				return
			}
		}
	}
	// Cheap filter before the regex: a result is one word, a space and its
	// parenthesized ID (`test_x (m.C.test_x)`); most lines fail at their
	// first space.
	s := t[leadingSpace(t):]
	if i := bytes.IndexByte(s, ' '); i < 1 || i+1 >= len(s) || s[i+1] != '(' {
		return
	}
	for len(t) > 0 {
		m := reUnittestName.FindSubmatchIndex(t)
		if m == nil {
			return
		}
		id := unittestID(string(t[m[2]:m[3]]), string(t[m[4]:m[5]]))
		rest := t[m[1]:]
		p.pending, p.pendingOff = id, ln.off
		if st, ok := unittestOutcome(rest); ok {
			p.result(id, st, ln.off)
			return
		}
		t = rest
	}
}

// unittestOutcome reads the outcome word(s) after ` ... `.
func unittestOutcome(t []byte) (Status, bool) {
	switch {
	case string(t) == "ok":
		return StatusPassed, true
	case string(t) == "FAIL" || string(t) == "unexpected success":
		return StatusFailed, true
	case string(t) == "ERROR":
		return StatusError, true
	case string(t) == "expected failure" || string(t) == "skipped" || hasPrefix(t, "skipped '") || hasPrefix(t, `skipped "`):
		return StatusSkipped, true
	}
	return StatusUnknown, false
}

// unittestID is the dotted test ID whatever the Python version printed:
// `tests.test_calc.CalcTest.test_add`; a module that failed to import is
// named by its module.
func unittestID(name, id string) string {
	id = strings.TrimPrefix(id, "unittest.loader._FailedTest.")
	if id == name || strings.HasSuffix(id, "."+name) {
		return id
	}
	return id + "." + name
}

// result records one verbose outcome; a test with failing subtests prints
// one line per failing subtest but is one test.
func (p *unittestParser) result(id string, st Status, off int64) {
	p.pending = ""
	p.set.seen = true
	if id == p.lastID {
		return
	}
	p.lastID = id
	i := strings.LastIndexByte(id, '.')
	p.set.add(Test{ID: id, Suite: id[:max(i, 0)], Name: id[i+1:], Status: st, Offset: off})
}

// rule handles a `=====` (a failure block follows) or `-----` line (the
// block body starts, or the summary follows).
func (p *unittestParser) rule(c byte) {
	if c == '=' {
		p.closeBlock()
		p.block = &unittestBlock{msg: msgBuf{max: p.lim.MaxMessageBytes}, frames: frameList{max: p.lim.MaxFrames}}
		return
	}
	if b := p.block; b != nil && b.t.ID != "" && !b.body {
		b.body = true
		return
	}
	p.closeBlock()
}

func (p *unittestParser) feedBlock(ln line) {
	b, t := p.block, ln.text
	if b.t.ID == "" {
		m := reUnittestBlock.FindSubmatch(t)
		if m == nil {
			p.block = nil
			return
		}
		p.set.seen = true
		st := StatusFailed
		if string(m[1]) == "ERROR" {
			st = StatusError
		}
		b.t = Test{ID: unittestID(string(m[2]), string(m[3])), Status: st, Offset: ln.off}
		return
	}
	if hasPrefix(t, "Traceback (most recent call last):") {
		b.frames.frames, b.msg = b.frames.frames[:0], msgBuf{max: p.lim.MaxMessageBytes}
		return
	}
	if f, ok := p.fp.parse(t, false); ok {
		b.frames.add(f)
		b.msg.reset()
		return
	}
	if t[0] != ' ' || len(b.frames.frames) == 0 {
		b.msg.add(t)
	}
}

// closeBlock fills the failing record with its traceback, or adds it when
// no verbose line named it (plain `python -m unittest`).
func (p *unittestParser) closeBlock() {
	b := p.block
	p.block = nil
	if b == nil || b.t.ID == "" {
		return
	}
	dup := p.countDup(b.t)
	t := b.t
	t.Message = b.msg.String()
	t.Frames = innermostFirst(b.frames.frames, true)
	if f, ok := firstProject(t.Frames); ok {
		t.File, t.Line = f.File, f.Line
	}
	i := strings.LastIndexByte(t.ID, '.')
	t.Suite, t.Name = t.ID[:max(i, 0)], t.ID[i+1:]
	if p.set.updateFailing(t.ID, func(r *Test) {
		if r.Message != "" || len(r.Frames) > 0 {
			return // the first failing subtest's traceback speaks for the test
		}
		r.Message, r.Frames, r.File, r.Line = t.Message, t.Frames, t.File, t.Line
		if r.Offset < 0 || r.Offset > t.Offset {
			r.Offset = t.Offset
		}
	}) {
		return
	}
	if !dup { // else another failing subtest of a test already recorded
		p.set.add(t)
	}
}

// countDup counts blocks of subtests of a test already counted: the summary
// counts each failing subtest, the test counts once.
// It reports whether t is such a duplicate.
func (p *unittestParser) countDup(t Test) bool {
	last, dups := &p.lastFail, &p.dupFail
	if t.Status == StatusError {
		last, dups = &p.lastErr, &p.dupErr
	}
	dup := t.ID == *last
	if dup {
		*dups++
	}
	*last = t.ID
	return dup
}

// summary reads `OK`, `OK (skipped=1)`, `FAILED (failures=1, errors=2)`
// or `NO TESTS RAN`.
func (p *unittestParser) summary(t []byte) {
	p.closeBlock()
	c := Counts{}
	if string(t) != "NO TESTS RAN" {
		m := reUnittestEnd.FindSubmatch(t)
		if m == nil {
			return
		}
		for _, kv := range strings.Split(string(m[2]), ", ") {
			k, v, _ := strings.Cut(kv, "=")
			n, _ := strconv.Atoi(v)
			switch k {
			case "failures":
				c.Failed += max(0, n-p.dupFail)
			case "errors":
				c.Errors += max(0, n-p.dupErr)
			case "skipped", "expected failures":
				c.Skipped += n
			case "unexpected successes":
				c.Failed += n
			}
		}
	}
	c.Passed = max(0, p.ran-c.Failed-c.Errors-c.Skipped)
	p.set.addSummary(c)
	p.sawRan = false
}

func (p *unittestParser) finish() { p.closeBlock() }
