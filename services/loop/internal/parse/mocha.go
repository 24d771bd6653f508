package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strconv"
	"strings"
)

var (
	reMochaCount = lazyregexp.New(`^  (\d+) (passing|failing|pending)(?: \(\d+m?s\))?$`)
	reMochaBlock = lazyregexp.New(`^  (\d+)\) (.+)$`)
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
	// titled: the block's title ended with ':', as a failure section's does.
	titled bool
	// run holds the counts of the run being read: each run prints
	// `N passing` first, so the next one starts at its `passing` line, and
	// the runs of one step add up.
	run   Counts
	inRun bool
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
		// A top-level test's title is one line, ending with ':'.
		one := hasSuffix(m[2], ":")
		p.title = []string{string(bytes.TrimSuffix(m[2], []byte(":")))}
		p.inTitle, p.titled = !one, one
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
			p.inTitle, p.titled = false, true
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
	switch what {
	case "passing":
		p.close()
		p.endRun()
		p.inRun, p.failing = true, false
		p.run.Passed = v
	case "failing":
		p.run.Failed = v
		p.failing = true
	case "pending":
		p.run.Skipped = v
	}
	p.set.seen = true
}

// endRun adds the counts of the run read so far to the step's.
func (p *mochaParser) endRun() {
	if p.inRun {
		p.set.addSummary(p.run)
	}
	p.run, p.inRun = Counts{}, false
}

func (p *mochaParser) close() {
	b := p.block
	if b == nil {
		return
	}
	p.block = nil
	if !p.titled {
		// A failure section's title ends with ':'; a numbered line
		// without one is the next run's spec listing (`  1) adds`).
		return
	}
	t := b.result()
	t.Suite = strings.Join(p.title[:max(0, len(p.title)-1)], " ")
	t.Name = p.title[len(p.title)-1]
	t.ID = strings.Join(p.title, " ")
	if tf := testFile(t.Frames); tf != "" {
		t.ID = tf + " > " + t.ID
	}
	p.set.add(t)
}

func (p *mochaParser) finish() {
	p.close()
	p.endRun()
}
