package parse

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
)

var (
	reMochaCount = regexp.MustCompile(`^  (\d+) (passing|failing|pending)(?: \(\d+m?s\))?$`)
	reMochaBlock = regexp.MustCompile(`^  (\d+)\) (.+)$`)
)

// mochaParser reads mocha's spec reporter: `N passing`, `N failing`, then
// numbered failure sections with the error and its stack.
type mochaParser struct {
	lim     *Limits
	paths   *Paths
	set     *testSet
	fp      frameParser
	failing bool
	block   *jsBlock
	title   []string
	inTitle bool
}

func newMochaParser(lim *Limits, paths *Paths) *mochaParser {
	p := &mochaParser{lim: lim, paths: paths, set: newTestSet(lim)}
	p.fp.paths = paths
	return p
}

func (p *mochaParser) feed(ln line) {
	t := ln.text
	if len(bytes.TrimSpace(t)) == 0 {
		p.inTitle = false
		return
	}
	if t[0] != ' ' {
		return
	}
	if len(t) > 3 && t[1] == ' ' && t[2] >= '0' && t[2] <= '9' {
		if m := reMochaCount.FindSubmatch(t); m != nil {
			p.count(string(m[2]), m[1])
			return
		}
	}
	if !p.failing {
		return
	}
	if m := reMochaBlock.FindSubmatch(t); m != nil {
		p.close()
		p.title = []string{string(m[2])}
		p.inTitle = true
		p.block = &jsBlock{test: Test{Status: StatusFailed, Offset: ln.off}, msg: msgBuf{max: p.lim.MaxMessageBytes}, frames: frameList{max: p.lim.MaxFrames}}
		return
	}
	b := p.block
	if b == nil {
		return
	}
	s := bytes.TrimSpace(t)
	if p.inTitle {
		// The title continues on deeper-indented lines; the last ends with ':'.
		if len(p.title) < 16 {
			p.title = append(p.title, string(bytes.TrimSuffix(s, []byte(":"))))
		}
		if hasSuffix(s, ":") {
			p.inTitle = false
		}
		return
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

// count records one `N passing|failing|pending` line.
func (p *mochaParser) count(what string, n []byte) {
	v, _ := strconv.Atoi(string(n))
	if p.set.summary == nil {
		p.set.summary = &Counts{}
	}
	switch what {
	case "passing":
		p.set.summary.Passed = v
	case "failing":
		p.set.summary.Failed = v
		p.failing = true
	case "pending":
		p.set.summary.Skipped = v
	}
	p.set.seen = true
}

func (p *mochaParser) close() {
	b := p.block
	if b == nil {
		return
	}
	p.block = nil
	t := b.result()
	t.Suite = strings.Join(p.title[:max(0, len(p.title)-1)], " ")
	t.Name = p.title[len(p.title)-1]
	t.ID = strings.Join(p.title, " ")
	if tf := testFile(t.Frames); tf != "" {
		t.ID = tf + " > " + t.ID
	}
	p.set.add(t)
}

func (p *mochaParser) finish() { p.close() }
