package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strconv"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

var (
	reSurefireRun = lazyregexp.New(`Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(?:, Flakes: (\d+))?`)
	// Surefire 2.x `[ERROR] addsWrong(com.example.CalcTest)  Time elapsed: 0.007 s  <<< FAILURE!`
	// and 3.x `[ERROR] com.example.CalcTest.addsWrong -- Time elapsed: 0.007 s <<< FAILURE!`.
	reSurefireOld = lazyregexp.New(`^\[ERROR\] ([\w$]+)\(([\w.$]+)\)\s+Time elapsed: .*<<< (FAILURE|ERROR)!$`)
	reSurefireNew = lazyregexp.New(`^\[ERROR\] ([\w.$]+)\.([\w$]+)\s+--\s+Time elapsed: .*<<< (FAILURE|ERROR)!$`)
)

// surefireLogParser reads Maven Surefire's console output.
type surefireLogParser struct {
	lim      *Limits
	paths    *Paths
	set      *testSet
	fp       frameParser
	block    *jsBlock
	typ      string
	classSum Counts
}

func newSurefireLogParser(lim *Limits, paths *Paths) *surefireLogParser {
	p := &surefireLogParser{lim: lim, paths: paths, set: newTestSet(lim)}
	p.fp.paths = paths
	return p
}

func (p *surefireLogParser) feed(ln line) {
	t := ln.text
	if len(t) == 0 {
		p.close()
		return
	}
	// 48 bytes is the shortest line reSurefireRun matches.
	if len(t) >= 48 && bytes.Contains(t, []byte("Tests run: ")) {
		if m := reSurefireRun.FindSubmatch(t); m != nil {
			n := func(i int) int { v, _ := strconv.Atoi(string(m[i])); return v }
			run, fail, errs, skip := n(1), n(2), n(3), n(4)
			c := Counts{Passed: max(0, run-fail-errs-skip), Failed: fail, Errors: errs, Skipped: skip, Flaky: n(5)}
			if bytes.Contains(t, []byte("Time elapsed")) {
				p.classSum = p.classSum.Add(c)
				p.set.seen = true
			} else {
				p.set.addSummary(c)
			}
			return
		}
	}
	if hasPrefix(t, "[ERROR] ") && hasSuffix(t, "!") {
		var cls, name, what string
		if m := reSurefireOld.FindSubmatch(t); m != nil {
			cls, name, what = string(m[2]), string(m[1]), string(m[3])
		} else if m := reSurefireNew.FindSubmatch(t); m != nil {
			cls, name, what = string(m[1]), string(m[2]), string(m[3])
		}
		if cls != "" {
			p.close()
			st := StatusFailed
			if what == "ERROR" {
				st = StatusError
			}
			p.block = &jsBlock{test: Test{ID: cls + "." + name, Suite: cls, Name: name, Status: st, Offset: ln.off},
				msg: msgBuf{max: p.lim.MaxMessageBytes}, frames: frameList{max: p.lim.MaxFrames}}
			p.typ = ""
			return
		}
	}
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
		if len(b.msg.b) == 0 {
			if i := bytes.IndexByte(t, ':'); i > 0 {
				p.typ = string(t[:i])
			} else {
				p.typ = string(t)
			}
		}
		b.msg.add(t)
	}
}

func (p *surefireLogParser) close() {
	b := p.block
	if b == nil {
		return
	}
	p.block = nil
	t := b.result()
	t.kind = classify(t.Message, p.typ, t.Status)
	if strings.Contains(p.typ, "AssertionError") {
		t.kind = glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION
	}
	p.set.add(t)
}

func (p *surefireLogParser) finish() {
	p.close()
	if p.set.summary == nil && p.classSum.Total() > 0 {
		c := p.classSum
		p.set.summary = &c
	}
}
