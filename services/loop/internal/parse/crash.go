package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

var (
	reJSError     = lazyregexp.New(`^(?:Uncaught )?(?:[\w$]+\.)*[\w$]*(?:Error|Exception)(?: \[\w+\])?(?:: .*)?$`)
	reRustMain    = lazyregexp.New(`^thread '([^']*)'(?: \(\d+\))? panicked at (\S+?):(\d+):(\d+):?`)
	reSignalShell = lazyregexp.New(`^(?:.*: )?(Segmentation fault|Aborted|Bus error|Illegal instruction|Killed)(?: \(core dumped\))?$`)
)

// crashBlock is one uncaught error with its frames.
type crashBlock struct {
	kind       glv1.FailureKind
	msg        msgBuf
	frames     frameList
	outerFirst bool
	off        int64
	lang       string
	inFrames   bool
	wantMsg    bool
}

// crashParser finds uncaught errors outside any test runner's report:
// Python tracebacks and fatal errors, Go panics, Node uncaught exceptions,
// Rust panics and signals reported by the shell.
type crashParser struct {
	lim    *Limits
	paths  *Paths
	fp     frameParser
	cur    *crashBlock
	found  []Failure
	signal string
	sigOff int64
}

const maxCrashes = 5

func newCrashParser(lim *Limits, paths *Paths) *crashParser {
	p := &crashParser{lim: lim, paths: paths, sigOff: -1}
	p.fp.paths = paths
	return p
}

func (p *crashParser) feed(ln line) {
	t := ln.text
	if b := p.cur; b != nil {
		if p.continueBlock(b, t) {
			return
		}
		p.close()
	}
	if len(t) < 5 {
		return
	}
	switch t[0] {
	case 'T':
		if hasPrefix(t, "Traceback (most recent call last):") {
			p.start("python", ln.off, true, glv1.FailureKind_FAILURE_KIND_CRASH)
			return
		}
	case 'p', 'f':
		if hasPrefix(t, "panic: ") || hasPrefix(t, "fatal error: ") {
			b := p.start("go", ln.off, false, glv1.FailureKind_FAILURE_KIND_CRASH)
			b.msg.add(t)
			if hasPrefix(t, "panic: test timed out") {
				b.kind = glv1.FailureKind_FAILURE_KIND_TIMEOUT
			}
			return
		}
	case 't':
		if hasPrefix(t, "thread '") {
			if m := reRustMain.FindSubmatch(t); m != nil {
				b := p.start("rust", ln.off, false, glv1.FailureKind_FAILURE_KIND_CRASH)
				b.frames.add(p.fp.frame(string(m[2]), m[3], m[4], ""))
				b.wantMsg = true
				return
			}
		}
	case ' ', '\t', '{':
		return
	}
	if i := indexFatalPython(t); i >= 0 {
		b := p.start("python-fatal", ln.off, false, glv1.FailureKind_FAILURE_KIND_CRASH)
		b.msg.add(t[i:])
		return
	}
	if startsWithErrorType(t) && reJSError.Match(t) {
		b := p.start("js", ln.off, false, glv1.FailureKind_FAILURE_KIND_CRASH)
		b.msg.add(t)
		return
	}
	if p.signal == "" && mentionsSignal(t) {
		if m := reSignalShell.FindSubmatch(t); m != nil {
			p.signal, p.sigOff = string(m[1]), ln.off
		}
	}
}

// indexFatalPython finds "Fatal Python error: " (faulthandler) in t.
func indexFatalPython(t []byte) int {
	// Few lines have an 'F' at all: IndexByte is the cheaper first scan.
	f := bytes.IndexByte(t, 'F')
	if f < 0 {
		return -1
	}
	if i := bytes.Index(t[f:], []byte("Fatal Python error: ")); i >= 0 {
		return f + i
	}
	return -1
}

// startsWithErrorType reports whether the first word of t names an error
// type (`Error:`, `TypeError:`, `Uncaught RangeError`, `java.lang.IllegalStateException:`).
func startsWithErrorType(t []byte) bool {
	t = bytes.TrimPrefix(t, []byte("Uncaught "))
	// The first word ends at ':', ' ' or '[' (a loop: bytes.IndexAny
	// builds its byte set on every call).
	end := 0
	for end < len(t) && t[end] != ':' && t[end] != ' ' && t[end] != '[' {
		end++
	}
	w := t[:end]
	return hasSuffix(w, "Error") || hasSuffix(w, "Exception")
}

// mentionsSignal is a cheap test before the signal regex: the shell reports
// a signal death at the end of its line.
func mentionsSignal(t []byte) bool {
	t = bytes.TrimRight(t, " ")
	// Every signal word ends in one of these, and " (core dumped)" in ')'.
	if len(t) == 0 {
		return false
	}
	switch t[len(t)-1] {
	case 't', 'd', 'r', 'n', ')':
	default:
		return false
	}
	t = bytes.TrimSuffix(t, []byte(" (core dumped)"))
	for _, w := range [][]byte{[]byte("Segmentation fault"), []byte("Aborted"), []byte("Bus error"), []byte("Illegal instruction"), []byte("Killed")} {
		if bytes.HasSuffix(t, w) {
			return true
		}
	}
	return false
}

func (p *crashParser) start(lang string, off int64, outerFirst bool, kind glv1.FailureKind) *crashBlock {
	p.cur = &crashBlock{lang: lang, off: off, outerFirst: outerFirst, kind: kind,
		msg: msgBuf{max: p.lim.MaxMessageBytes}, frames: frameList{max: p.lim.MaxFrames}}
	return p.cur
}

// continueBlock feeds a line to the open block; false ends the block.
func (p *crashParser) continueBlock(b *crashBlock, t []byte) bool {
	if f, ok := p.fp.parse(t, false); ok {
		b.frames.add(f)
		b.inFrames = true
		return true
	}
	switch b.lang {
	case "python":
		if len(t) > 0 && (t[0] == ' ' || t[0] == '\t') {
			return true // source excerpt and caret lines
		}
		if len(t) > 0 {
			b.msg.add(t)
			b.lang = "python-msg"
		}
		return true
	case "python-msg":
		if len(t) > 0 && !hasPrefix(t, "Traceback") && !hasPrefix(t, "During handling") && len(b.msg.b) < 512 {
			b.msg.add(t)
			return true
		}
		return false
	case "python-fatal":
		return len(t) > 0 || !b.inFrames
	case "go":
		if len(t) == 0 || hasPrefix(t, "goroutine ") || hasPrefix(t, "\t") ||
			hasPrefix(t, "[signal ") || hasPrefix(t, "created by ") || (t[len(t)-1] == ')' && bytes.IndexByte(t, '(') > 0) {
			return true
		}
		return false
	case "rust":
		if b.wantMsg && len(t) > 0 {
			b.msg.add(t)
			b.wantMsg = false
			return true
		}
		return false
	case "js":
		if !b.inFrames && len(t) > 0 && t[0] != ' ' {
			b.msg.add(t)
			return len(b.msg.b) < 1024
		}
		return !b.inFrames && len(t) > 0 || (len(t) > 0 && t[0] == ' ' && !b.inFrames)
	}
	return false
}

func (p *crashParser) close() {
	b := p.cur
	p.cur = nil
	if b == nil || (b.lang == "js" && len(b.frames.frames) == 0) {
		return
	}
	if len(p.found) >= maxCrashes {
		return
	}
	f := Failure{Kind: b.kind, Message: b.msg.String(), Frames: innermostFirst(b.frames.frames, b.outerFirst), Offset: b.off}
	if fr, ok := firstProject(f.Frames); ok {
		f.File, f.Line, f.Column = fr.File, fr.Line, fr.Column
	}
	p.found = append(p.found, f)
}

func (p *crashParser) finish() {
	p.close()
	if p.signal != "" && len(p.found) < maxCrashes {
		p.found = append(p.found, Failure{Kind: glv1.FailureKind_FAILURE_KIND_CRASH, Message: p.signal, Offset: p.sigOff})
	}
}
