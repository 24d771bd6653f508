package parse

import (
	"regexp"
	"strconv"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

var (
	reCargoTest   = regexp.MustCompile(`^test (\S+) \.\.\. (ok|FAILED|ignored|bench)`)
	reCargoResult = regexp.MustCompile(`^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out`)
	reCargoBlock  = regexp.MustCompile(`^---- (\S+) stdout ----$`)
	// `thread 'tests::x' (31312) panicked at src/lib.rs:27:9:` (Rust ≥ 1.73) and
	// the older `thread 'x' panicked at 'msg', src/lib.rs:27:9`.
	rePanicNew = regexp.MustCompile(`^thread '([^']*)'(?: \(\d+\))? panicked at (\S+?):(\d+):(\d+):$`)
	rePanicOld = regexp.MustCompile(`^thread '([^']*)'(?: \(\d+\))? panicked at '(.*)', (\S+?):(\d+):(\d+)$`)
	// Before Rust 1.73 a multi-line message (assert_eq!'s left/right)
	// spans lines: `thread 'x' panicked at 'assertion failed: ...`, then
	// `  left: ...`, then ` right: `5`', src/lib.rs:27:9` (Debian's 1.65).
	rePanicOldStart = regexp.MustCompile(`^thread '([^']*)'(?: \(\d+\))? panicked at '(.*)$`)
	rePanicOldEnd   = regexp.MustCompile(`^(.*)', (\S+?):(\d+):(\d+)$`)
)

// cargoParser reads libtest output (`cargo test`): `test x ... ok` lines,
// `---- x stdout ----` failure sections and `test result:` summaries.
type cargoParser struct {
	lim   *Limits
	paths *Paths
	set   *testSet
	fp    frameParser
	block *jsBlock
	inMsg bool
	// inOld is true inside a pre-1.73 multi-line panic message.
	inOld bool
}

func newCargoParser(lim *Limits, paths *Paths) *cargoParser {
	p := &cargoParser{lim: lim, paths: paths, set: newTestSet(lim)}
	p.fp.paths = paths
	return p
}

func (p *cargoParser) feed(ln line) {
	t := ln.text
	if len(t) == 0 {
		p.inMsg = false
		return
	}
	switch {
	case hasPrefix(t, "test "):
		if m := reCargoTest.FindSubmatch(t); m != nil {
			st := map[string]Status{"ok": StatusPassed, "FAILED": StatusFailed, "ignored": StatusSkipped, "bench": StatusPassed}[string(m[2])]
			p.set.add(Test{ID: string(m[1]), Name: string(m[1]), Status: st, Offset: ln.off})
			return
		}
		if m := reCargoResult.FindSubmatch(t); m != nil {
			p.close()
			n := func(i int) int { v, _ := strconv.Atoi(string(m[i])); return v }
			p.set.addSummary(Counts{Passed: n(1), Failed: n(2), Skipped: n(3)})
			return
		}
	case hasPrefix(t, "---- "):
		if m := reCargoBlock.FindSubmatch(t); m != nil {
			p.close()
			p.block = &jsBlock{test: Test{ID: string(m[1]), Offset: ln.off}, msg: msgBuf{max: p.lim.MaxMessageBytes}, frames: frameList{max: p.lim.MaxFrames}}
			return
		}
	case string(t) == "failures:":
		p.close()
		return
	}
	b := p.block
	if b == nil {
		return
	}
	if m := rePanicNew.FindSubmatch(t); m != nil {
		b.frames.add(p.fp.frame(string(m[2]), m[3], m[4], ""))
		p.inMsg = true
		return
	}
	if m := rePanicOld.FindSubmatch(t); m != nil {
		b.frames.add(p.fp.frame(string(m[3]), m[4], m[5], ""))
		b.msg.add(m[2])
		return
	}
	if p.inOld {
		if m := rePanicOldEnd.FindSubmatch(t); m != nil {
			b.msg.add(m[1])
			b.frames.add(p.fp.frame(string(m[2]), m[3], m[4], ""))
			p.inOld = false
			return
		}
		b.msg.add(t)
		return
	}
	if m := rePanicOldStart.FindSubmatch(t); m != nil {
		b.msg.add(m[2])
		p.inOld = true
		return
	}
	if f, ok := p.fp.parse(t, false); ok {
		b.frames.add(f)
		p.inMsg = false
		return
	}
	if hasPrefix(t, "stack backtrace:") || hasPrefix(t, "note: ") {
		p.inMsg = false
		return
	}
	if p.inMsg {
		b.msg.add(t)
	}
}

// close attaches a failure section to the failing record of its test.
func (p *cargoParser) close() {
	b := p.block
	if b == nil {
		return
	}
	p.block, p.inMsg, p.inOld = nil, false, false
	msg := b.msg.String()
	frames := b.frames.frames
	kind := glv1.FailureKind_FAILURE_KIND_TEST_ERROR
	if strings.HasPrefix(msg, "assertion") {
		kind = glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION
	}
	p.set.updateFailing(b.test.ID, func(t *Test) {
		t.Message, t.Frames, t.kind = msg, frames, kind
		if f, ok := firstProject(frames); ok {
			t.File, t.Line = f.File, f.Line
		}
	})
}

func (p *cargoParser) finish() { p.close() }
