package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strconv"
)

var (
	// A failure header: `   FAIL  average  "of nothing"` (suite, then the
	// quoted test name) or `   FAIL  "adds wrong"` for the default suite.
	reUvuFail = lazyregexp.New(`^\s+FAIL\s+(?:(.*?)\s+)?"(.*)"$`)
	// The summary: `  Total:     4`, `  Passed:    2`, `  Skipped:   1`.
	reUvuCount = lazyregexp.New(`^\s+(Total|Passed|Skipped):\s+(\d+)$`)
)

// uvuParser reads uvu's output: one FAIL block per failing test (message,
// then the stack) and the summary, whose Total excludes skipped tests.
type uvuParser struct {
	lim   *Limits
	paths *Paths
	set   *testSet
	fp    frameParser
	block *jsBlock
	// total and passed are the summary so far; step says which line is next.
	total, passed int
	step          int
}

func newUvuParser(lim *Limits, paths *Paths) *uvuParser {
	p := &uvuParser{lim: lim, paths: paths, set: newTestSet(lim)}
	p.fp.paths = paths
	return p
}

func (p *uvuParser) feed(ln line) {
	t := ln.text
	if len(t) < 6 || t[0] != ' ' {
		if len(t) > 0 && p.block != nil && p.block.stack {
			p.closeBlock() // the next file's header
		}
		return
	}
	s := t[leadingSpace(t):]
	switch {
	case len(s) == 0:
		return
	case s[0] == 'F' && hasPrefix(s, "FAIL "):
		if m := reUvuFail.FindSubmatch(t); m != nil {
			p.closeBlock()
			id := string(m[2])
			if len(m[1]) > 0 {
				id = string(m[1]) + " > " + id
			}
			p.block = &jsBlock{test: Test{ID: id, Suite: string(m[1]), Name: string(m[2]), Status: StatusFailed, Offset: ln.off},
				msg: msgBuf{max: p.lim.MaxMessageBytes}, frames: frameList{max: p.lim.MaxFrames}}
			return
		}
	case s[0] == 'T' || s[0] == 'P' || s[0] == 'S':
		if p.count(t) {
			return
		}
	}
	p.feedBlock(t)
}

// count reads the summary lines, which come in a fixed order.
func (p *uvuParser) count(t []byte) bool {
	m := reUvuCount.FindSubmatch(t)
	if m == nil {
		return false
	}
	n, _ := strconv.Atoi(string(m[2]))
	switch {
	case string(m[1]) == "Total":
		p.closeBlock()
		p.total, p.step = n, 1
	case string(m[1]) == "Passed" && p.step == 1:
		p.passed, p.step = n, 2
	case string(m[1]) == "Skipped" && p.step == 2:
		p.set.addSummary(Counts{Passed: p.passed, Failed: max(0, p.total-p.passed), Skipped: n})
		p.step = 0
	}
	return true
}

func (p *uvuParser) feedBlock(t []byte) {
	b := p.block
	if b == nil {
		return
	}
	if f, ok := p.fp.parse(t, false); ok {
		b.frames.add(f)
		b.stack = true
		return
	}
	if !b.stack {
		b.msg.add(bytes.TrimSpace(t))
	}
}

func (p *uvuParser) closeBlock() {
	b := p.block
	if b == nil {
		return
	}
	p.block = nil
	t := b.result()
	p.set.add(t)
}

func (p *uvuParser) finish() { p.closeBlock() }
