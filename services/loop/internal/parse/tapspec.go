package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strings"
)

// FormatTapSpec is TAP as the tap-spec reporter renders it (`tape … |
// tap-spec`): the raw TAP is not in the log.
const FormatTapSpec = "tap-spec"

var (
	// The run's summary: `  total:     13`, `  passing:   8`, `  failing:   5`.
	reTapSpecCount = lazyregexp.New(`^  (total|passing|failing):\s+(\d+)$`)
	// A failed assertion's diagnostic line: `      operator: equal`.
	reTapSpecKey = lazyregexp.New(`^      ([A-Za-z_]\w*):(?: (.*))?$`)
)

// tapSpecParser reads tap-spec's output: a test's name on its own line
// (two spaces in), its assertions (`    ✔ name`, `    ✖ name` followed by
// a rule and the TAP diagnostics, `at:` included), then `Failed Tests:`
// repeating the failures and the counts. tap-spec counts a failing TODO
// assertion as failing, and so exits 1: so does this account.
type tapSpecParser struct {
	lim   *Limits
	paths *Paths
	set   *testSet
	fp    frameParser
	// name is the test whose assertions follow; listing is set inside the
	// closing `Failed Tests:` section, which only repeats names.
	name    []byte
	listing bool
	cur     *nodeTAPTest
	key     string
	// inStack: the lines after `stack: |-`, printed two spaces in.
	inStack bool
	// run holds the counts of the summary being read.
	run   Counts
	inRun bool
}

func newTapSpecParser(lim *Limits, paths *Paths) *tapSpecParser {
	p := &tapSpecParser{lim: lim, paths: paths, set: newTestSet(lim)}
	p.fp.paths = paths
	return p
}

func (p *tapSpecParser) feed(ln line) {
	t := ln.text
	if len(bytes.TrimSpace(t)) == 0 {
		p.close()
		p.inStack = false
		return
	}
	if p.inStack {
		if p.cur != nil {
			if f, ok := p.fp.parse(t, false); ok {
				p.cur.frames.add(f)
			}
		}
		return
	}
	if len(t) < 3 || t[0] != ' ' || t[1] != ' ' {
		p.close()
		return
	}
	if t[2] != ' ' {
		p.close()
		switch {
		case hasPrefix(t, "  Failed Tests: "):
			p.listing = true
		case t[2] == 't' || t[2] == 'p' || t[2] == 'f':
			if m := reTapSpecCount.FindSubmatch(t); m != nil {
				p.count(string(m[1]), atoi(m[2]))
				return
			}
			p.name = append(p.name[:0], bytes.TrimSpace(t)...)
		default:
			p.name = append(p.name[:0], bytes.TrimSpace(t)...)
		}
		return
	}
	if p.listing {
		return
	}
	s := t[leadingSpace(t):]
	if hasPrefix(s, "✖ ") && leadingSpace(t) == 4 {
		p.close()
		name := string(bytes.TrimSpace(s[len("✖ "):]))
		suite := string(p.name)
		tt := Test{Name: name, Suite: suite, ID: strings.TrimPrefix(suite+" > "+name, " > "), Status: StatusFailed, Offset: ln.off}
		p.cur = &nodeTAPTest{t: tt, msg: msgBuf{max: p.lim.MaxMessageBytes}, frames: frameList{max: p.lim.MaxFrames}}
		p.key = ""
		return
	}
	if hasPrefix(s, "✔ ") {
		p.close()
		return
	}
	x := p.cur
	if x == nil {
		return
	}
	if m := reTapSpecKey.FindSubmatch(t); m != nil {
		p.key = string(m[1])
		v := strings.Trim(strings.TrimSpace(string(m[2])), `'"`)
		if p.key == "at" {
			if f, ok := p.fp.parse([]byte("    at "+v), false); ok {
				x.at = f
			}
			return
		}
		x.tap.value(p.key, v)
		p.inStack = p.key == "stack"
		return
	}
	if p.key == "expected" || p.key == "actual" {
		x.tap.more(p.key, bytes.TrimSpace(t))
	}
}

// count records a summary line; `total` starts a run's summary, and the
// runs of one step add up.
func (p *tapSpecParser) count(what string, n int) {
	switch what {
	case "total":
		p.endRun()
		p.inRun, p.listing = true, false
	case "passing":
		p.run.Passed = n
	case "failing":
		p.run.Failed = n
	}
	p.set.seen = true
}

func (p *tapSpecParser) endRun() {
	if p.inRun {
		p.set.addSummary(p.run)
	}
	p.run, p.inRun = Counts{}, false
}

// close records the failed assertion being read.
func (p *tapSpecParser) close() {
	x := p.cur
	if x == nil {
		return
	}
	p.cur = nil
	t := x.t
	t.Message, t.kind = x.tap.message(t.Name, p.lim.MaxMessageBytes)
	t.Frames = x.frames.frames
	if x.at.Project && x.at.File != "" {
		t.File, t.Line = x.at.File, x.at.Line
	} else if f, ok := firstProject(t.Frames); ok {
		t.File, t.Line = f.File, f.Line
	}
	p.set.add(t)
}

func (p *tapSpecParser) finish() {
	p.close()
	p.endRun()
}

// useTapSpec makes tap-spec's account the parser's result when it printed
// its summary and no raw TAP was counted (the reporter consumed it).
func (p *nodeTestParser) useTapSpec() bool {
	s := p.tapSpec
	s.finish()
	if s.set.summary == nil || p.set.counts.Total() > 0 {
		return false
	}
	p.set, p.format = s.set, FormatTapSpec
	return true
}
