package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"path"
	"sort"
	"strconv"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Python reports a syntax error (SyntaxError, IndentationError, TabError)
// as a location line without a function, the offending source and a
// caret, then the error:
//
//	  File "/workspace/app/calc.py", line 5
//	    def mul(a, b:
//	           ^
//	SyntaxError: '(' was never closed
//
// the same in a traceback (an import, unittest loading), after pytest's
// "E   " (collection errors), and in compileall's output, which also has
// a one-line form naming only the file's base name:
//
//	*** Error compiling './app/shapes.py'...
//	Sorry: IndentationError: unexpected indent (shapes.py, line 3)
var (
	rePySyntaxLoc     = lazyregexp.New(`^File "([^"]+)", line (\d+)$`)
	rePySyntaxErr     = lazyregexp.New(`^(?:Sorry: )?((?:SyntaxError|IndentationError|TabError): .*?)(?: \(([^()\s]+), line (\d+)\))?$`)
	rePySyntaxCompile = lazyregexp.New(`^\*\*\* Error compiling '(.+)'\.\.\.$`)
)

// pySyntaxWindow is how many lines (source, caret) may come between the
// location and the error.
const pySyntaxWindow = 4

// pySyntax is one syntax error Python reported.
type pySyntax struct {
	f Failure
	// err is the error line ("SyntaxError: '(' was never closed").
	err string
}

// pySyntaxParser finds Python syntax errors in a log (or a failure's
// message) with the file and line Python names.
type pySyntaxParser struct {
	paths *Paths
	max   int

	locFile   string
	locLine   int
	locOff    int64
	since     int
	source    []string
	compiling string

	found []pySyntax
}

func newPySyntaxParser(paths *Paths, lim *Limits) *pySyntaxParser {
	return &pySyntaxParser{paths: paths, max: lim.MaxFailures}
}

// pyTrim strips the indentation and pytest's "E   " prefix of a line.
func pyTrim(t []byte) []byte {
	t = bytes.TrimSpace(t)
	if len(t) > 2 && t[0] == 'E' && (t[1] == ' ' || t[1] == '\t') {
		t = bytes.TrimSpace(t[1:])
	}
	return t
}

func (p *pySyntaxParser) feed(ln line) {
	t := pyTrim(ln.text)
	if len(t) < 6 {
		p.step(t)
		return
	}
	switch t[0] {
	case 'F':
		if m := rePySyntaxLoc.FindSubmatch(t); m != nil {
			p.locFile, p.locOff, p.since, p.source = string(m[1]), ln.off, 0, p.source[:0]
			p.locLine, _ = strconv.Atoi(string(m[2]))
			return
		}
	case '*':
		if m := rePySyntaxCompile.FindSubmatch(t); m != nil {
			p.compiling, p.locFile = string(m[1]), ""
			return
		}
	case 'S', 'I', 'T':
		if bytes.Contains(t, []byte("Error: ")) {
			if m := rePySyntaxErr.FindSubmatch(t); m != nil {
				p.report(string(m[1]), string(m[2]), string(m[3]), ln.off)
				return
			}
		}
	}
	p.step(t)
}

// step counts a line between a location and its error, keeping the
// source line for the message.
func (p *pySyntaxParser) step(t []byte) {
	if p.locFile == "" {
		return
	}
	if p.since++; p.since > pySyntaxWindow {
		p.locFile = ""
		return
	}
	// The caret's column is lost with the indentation: only the code.
	if len(bytes.Trim(t, "^~ ")) > 0 && len(p.source) < 2 {
		p.source = append(p.source, capString(string(t), 200))
	}
}

// report records the error err, located by the location line before it
// or, in compileall's one-line form, by base and lineNo.
func (p *pySyntaxParser) report(err, base, lineNo string, off int64) {
	file, line, at := p.locFile, p.locLine, p.locOff
	source := p.source
	p.locFile = ""
	if base != "" {
		file, at, source = base, off, nil
		line, _ = strconv.Atoi(lineNo)
		if p.compiling != "" && path.Base(p.compiling) == base {
			file = p.compiling
		}
	}
	if file == "" || line <= 0 || len(p.found) >= p.max {
		return
	}
	rel, project := p.paths.Normalize(file)
	if !project || (base != "" && file == base && !p.paths.Exists(rel)) {
		return // <string>, an installed package, a base name that is no file here
	}
	for _, s := range p.found {
		if s.f.File == rel && s.f.Line == line && s.err == err {
			return
		}
	}
	msg := err
	if len(source) > 0 {
		msg += "\n    " + strings.Join(source, "\n    ")
	}
	f := Failure{File: rel, Line: line, Kind: glv1.FailureKind_FAILURE_KIND_COMPILE, Message: msg, Offset: at,
		Frames: []Frame{{File: rel, Line: line, Project: true}}}
	p.found = append(p.found, pySyntax{f: f, err: err})
}

// failures are the syntax errors found, as failures.
func (p *pySyntaxParser) failures() []Failure {
	out := make([]Failure, 0, len(p.found))
	for _, s := range p.found {
		out = append(out, s.f)
	}
	return out
}

// isPySyntaxMessage reports whether a failure's message is a Python
// syntax error.
func isPySyntaxMessage(msg string) bool {
	return strings.Contains(msg, "SyntaxError") || strings.Contains(msg, "IndentationError") || strings.Contains(msg, "TabError")
}

// locate moves test failures that are a Python syntax error (pytest's
// collection error, unittest's failed import) from the test file's import
// line to the file and line Python named: first from the failure's own
// message, else from the log's report of the same error after the
// failure's evidence, each report used once, in log order. It returns
// how many failures it moved.
func (p *pySyntaxParser) locate(fs []Failure) int {
	order := make([]int, 0, len(fs))
	for i := range fs {
		if fs[i].Test != "" && isPySyntaxMessage(fs[i].Message) {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return fs[order[a]].Offset < fs[order[b]].Offset })
	used := make([]bool, len(p.found))
	moved := 0
	for _, i := range order {
		f := &fs[i]
		own := &pySyntaxParser{paths: p.paths, max: 1}
		for _, l := range strings.Split(f.Message, "\n") {
			own.feed(line{text: []byte(l)})
		}
		var at *pySyntax
		if len(own.found) > 0 {
			at = &own.found[0]
		} else {
			for j := range p.found {
				s := &p.found[j]
				if !used[j] && s.f.Offset >= f.Offset && strings.Contains(f.Message, s.err) {
					used[j], at = true, s
					break
				}
			}
		}
		if at == nil {
			continue
		}
		f.File, f.Line, f.Column, f.Kind = at.f.File, at.f.Line, 0, glv1.FailureKind_FAILURE_KIND_COMPILE
		f.Frames = append([]Frame{{File: at.f.File, Line: at.f.Line, Project: true}}, f.Frames...)
		moved++
	}
	return moved
}
