package rust

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/toolchain"
)

var (
	reTest   = regexp.MustCompile(`^test (\S+) \.\.\. (ok|FAILED|ignored|bench)`)
	reResult = regexp.MustCompile(`^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out`)
	reBlock  = regexp.MustCompile(`^---- (\S+) stdout ----$`)
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

var outcome = map[string]toolchain.Status{
	"ok": toolchain.Passed, "FAILED": toolchain.Failed, "ignored": toolchain.Skipped, "bench": toolchain.Passed,
}

// NewParser reads libtest output (`cargo test`): `test x ... ok` lines,
// `---- x stdout ----` failure sections and `test result:` summaries.
func (Pack) NewParser(r toolchain.Recorder) toolchain.LineParser {
	return &parser{r: r}
}

// parser is one step's libtest reader.
type parser struct {
	r     toolchain.Recorder
	block *block
	inMsg bool
	// inOld is true inside a pre-1.73 multi-line panic message.
	inOld bool
}

// block is one `---- x stdout ----` failure section.
type block struct {
	id     string
	msg    []string
	size   int
	cut    bool
	frames []toolchain.Frame
}

func (p *parser) Feed(t []byte, off int64) {
	if len(t) == 0 {
		p.inMsg = false
		return
	}
	if p.header(t, off) {
		return
	}
	if p.block != nil {
		p.body(t)
	}
}

// header handles outcome, summary and section lines; true when t was one.
func (p *parser) header(t []byte, off int64) bool {
	switch {
	case bytes.HasPrefix(t, []byte("test ")):
		if m := reTest.FindSubmatch(t); m != nil {
			id := string(m[1])
			p.r.Test(toolchain.Test{ID: id, Name: id, Status: outcome[string(m[2])], Offset: off})
			return true
		}
		if m := reResult.FindSubmatch(t); m != nil {
			p.close()
			n := func(i int) int { v, _ := strconv.Atoi(string(m[i])); return v }
			p.r.Summary(toolchain.Counts{Passed: n(1), Failed: n(2), Skipped: n(3)})
			return true
		}
	case bytes.HasPrefix(t, []byte("---- ")):
		if m := reBlock.FindSubmatch(t); m != nil {
			p.close()
			p.block = &block{id: string(m[1])}
			return true
		}
	case string(t) == "failures:":
		p.close()
		return true
	}
	return false
}

// body reads a failure section's panic message and frames.
func (p *parser) body(t []byte) {
	b := p.block
	if m := rePanicNew.FindSubmatch(t); m != nil {
		b.frame(p.r.Frame(string(m[2]), atoi(m[3]), atoi(m[4]), ""))
		p.inMsg = true
		return
	}
	if m := rePanicOld.FindSubmatch(t); m != nil {
		b.frame(p.r.Frame(string(m[3]), atoi(m[4]), atoi(m[5]), ""))
		p.add(m[2])
		return
	}
	if p.inOld {
		if m := rePanicOldEnd.FindSubmatch(t); m != nil {
			p.add(m[1])
			b.frame(p.r.Frame(string(m[2]), atoi(m[3]), atoi(m[4]), ""))
			p.inOld = false
			return
		}
		p.add(t)
		return
	}
	if m := rePanicOldStart.FindSubmatch(t); m != nil {
		p.add(m[2])
		p.inOld = true
		return
	}
	if f, ok := p.r.ParseFrame(t); ok {
		b.frame(f)
		p.inMsg = false
		return
	}
	if bytes.HasPrefix(t, []byte("stack backtrace:")) || bytes.HasPrefix(t, []byte("note: ")) {
		p.inMsg = false
		return
	}
	if p.inMsg {
		p.add(t)
	}
}

// add appends a message line while the recorder's cap allows.
func (p *parser) add(t []byte) {
	b := p.block
	if b.size >= p.r.MaxMessageBytes() {
		b.cut = true
		return
	}
	b.size += len(t) + 1
	b.msg = append(b.msg, string(t))
}

// frame adds a frame unless it repeats the previous one (the panic site is
// printed again as the first backtrace frame).
func (b *block) frame(f toolchain.Frame) {
	if n := len(b.frames); n > 0 && b.frames[n-1].File == f.File && b.frames[n-1].Line == f.Line {
		if b.frames[n-1].Func == "" {
			b.frames[n-1].Func = f.Func
		}
		return
	}
	b.frames = append(b.frames, f)
}

// close attaches a failure section to the failing record of its test.
func (p *parser) close() {
	b := p.block
	if b == nil {
		return
	}
	p.block, p.inMsg, p.inOld = nil, false, false
	msg := strings.Trim(strings.Join(b.msg, "\n"), " \t\r\n")
	if b.cut {
		msg += "\n… [cut]"
	}
	p.r.Fail(b.id, toolchain.Failure{Message: msg, Frames: b.frames, Assertion: strings.HasPrefix(msg, "assertion")})
}

func (p *parser) Finish() { p.close() }

func atoi(b []byte) int { n, _ := strconv.Atoi(string(b)); return n }
