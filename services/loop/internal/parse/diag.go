package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"bytes"
	"strconv"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Diagnostic tools, recorded as the lint format.
const (
	toolGo     = "go"
	toolFlake8 = "flake8"
	toolEslint = "eslint"
	toolTsc    = "tsc"
	toolMypy   = "mypy"
	toolRustc  = "rustc"
	toolJavac  = "javac"
	toolLint   = "file:line:col"
)

var (
	// `calc/calc.go:21:13: undefined: c`, flake8/ruff `app/x.py:1:1: F401 …`,
	// eslint unix `/w/src/app.js:1:8: msg [Error/rule]`, tsc pretty `src/a.ts:15:9 - error TS2322: …`.
	reColonDiag = lazyregexp.New(`^([^\s:()\[\]"'<>|][^\s:()"'<>|]*\.[A-Za-z][A-Za-z0-9]{0,9}):(\d+):(\d+):? (.+)$`)
	// tsc: `src/price.ts(15,9): error TS2322: …`.
	reTscDiag = lazyregexp.New(`^(\S+?)\((\d+),(\d+)\): (error|warning) (TS\d+: .*)$`)
	// mypy: `app/util.py:7: error: … [return-value]`.
	reMypyDiag = lazyregexp.New(`^(\S+\.pyi?):(\d+):(?:(\d+):)? (error|warning): (.*)$`)
	// rustc/clippy header `error[E0425]: cannot find value` and location ` --> src/lib.rs:4:13`.
	reRustHead = lazyregexp.New(`^(error|warning)(?:\[(\w+)\])?: (.*)$`)
	reRustLoc  = lazyregexp.New(`^\s*--> (\S+):(\d+):(\d+)$`)
	// javac through Maven: `[ERROR] /w/src/main/java/x/Calc.java:[6,20] cannot find symbol`.
	reJavacDiag = lazyregexp.New(`^\[ERROR\] (\S+\.(?:java|kt|scala)):\[(\d+),(\d+)\] (.*)$`)
	// eslint stylish: a file header, then `  4:7  error  'x' is assigned …  no-unused-vars`.
	reStylishFile = lazyregexp.New(`^(/\S+|\S+\.[cm]?[jt]sx?|\S+\.vue)$`)
	reStylishDiag = lazyregexp.New(`^\s+(\d+):(\d+)\s+(error|warning)\s+(.+?)(?:\s{2,}(\S+))?$`)
	// Summaries: eslint `✖ 3 problems (3 errors, 0 warnings)`, unix `3 problems`,
	// ruff `Found 3 errors.`, mypy `Found 2 errors in 1 file (checked …)`, tsc `Found 2 errors in …`.
	reEslintSummary = lazyregexp.New(`^(?:✖ )?(\d+) problems?(?: \((\d+) errors?, (\d+) warnings?\))?$`)
	reFoundSummary  = lazyregexp.New(`^Found (\d+) errors?(?:\.| in )`)
	reMypySuccess   = lazyregexp.New(`^Success: no issues found`)
	reFlake8Code    = lazyregexp.New(`^[A-Z]{1,3}\d{2,4}\b`)
)

// diagnostic is one compiler/linter finding.
type diagnostic struct {
	f       Failure
	tool    string
	warning bool
}

// diagParser finds `file:line:col: message` style diagnostics of compilers,
// linters and type checkers, and the summary lines that count them.
type diagParser struct {
	paths *Paths
	phase glv1.Phase
	lim   *Limits

	diags   []diagnostic
	total   int
	errors  int
	omitted int
	dedupe  map[string]struct{}
	tool    string
	summary int // -1: no summary line seen

	rustHead *diagnostic
	stylish  string
}

func newDiagParser(paths *Paths, phase glv1.Phase, lim *Limits) *diagParser {
	return &diagParser{paths: paths, phase: phase, lim: lim, summary: -1, dedupe: map[string]struct{}{}}
}

func (d *diagParser) feed(ln line) {
	t := ln.text
	if len(t) < 6 || t[0] == '{' {
		d.stylish = ""
		return
	}
	if d.feedSummary(t) {
		return
	}
	switch {
	case t[0] == '[' && hasPrefix(t, "[ERROR] "):
		if m := reJavacDiag.FindSubmatch(t); m != nil {
			d.add(ln.off, toolJavac, m[1], m[2], m[3], string(m[4]), false)
		}
		return
	case (t[0] == 'e' && hasPrefix(t, "error")) || (t[0] == 'w' && hasPrefix(t, "warning")):
		if m := reRustHead.FindSubmatch(t); m != nil {
			d.rustHead = &diagnostic{tool: toolRustc, warning: string(m[1]) == "warning",
				f: Failure{Message: string(m[0]), Offset: ln.off}}
			return
		}
	case t[0] == ' ' && d.rustHead != nil && bytes.Contains(t, []byte("--> ")):
		if m := reRustLoc.FindSubmatch(t); m != nil {
			h := d.rustHead
			d.rustHead = nil
			d.addAt(h.f.Offset, toolRustc, m[1], m[2], m[3], h.f.Message, h.warning)
			return
		}
	case (t[0] == ' ' || t[0] == '\t') && d.stylish != "":
		if m := reStylishDiag.FindSubmatch(t); m != nil {
			msg := string(m[4])
			if len(m[5]) > 0 {
				msg += "  " + string(m[5])
			}
			d.add(ln.off, toolEslint, []byte(d.stylish), m[1], m[2], msg, string(m[3]) == "warning")
			return
		}
	}
	if t[0] == ' ' || t[0] == '\t' {
		return
	}
	colon := bytes.IndexByte(t, ':')
	if colon < 0 && bytes.IndexByte(t, ' ') < 0 && reStylishFile.Match(t) {
		d.stylish = string(t)
		return
	}
	d.stylish = ""
	if colon < 0 {
		return
	}
	if hasFileLinePrefix(t, colon) {
		d.feedColon(ln)
		return
	}
	if bytes.Contains(t, []byte("): ")) && (bytes.Contains(t, []byte("): error TS")) || bytes.Contains(t, []byte("): warning TS"))) {
		if m := reTscDiag.FindSubmatch(t); m != nil {
			d.add(ln.off, toolTsc, m[1], m[2], m[3], string(m[5]), string(m[4]) == "warning")
		}
	}
}

// hasFileLinePrefix is a cheap test for `path.ext:NN` before the first
// colon, so the diagnostic regexes only run on likely lines.
func hasFileLinePrefix(t []byte, colon int) bool {
	if colon < 3 || colon+1 >= len(t) || t[colon+1] < '0' || t[colon+1] > '9' {
		return false
	}
	head := t[:colon]
	if bytes.IndexByte(head, '.') < 0 || bytes.IndexByte(head, ' ') >= 0 {
		return false
	}
	i := colon + 1
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	rest := t[i:]
	// `:line:col` (compilers, linters) or mypy's `:line: error:` / `:line:col: error:`.
	return len(rest) > 1 && rest[0] == ':' && (rest[1] >= '0' && rest[1] <= '9' ||
		hasPrefix(rest, ": error: ") || hasPrefix(rest, ": warning: "))
}

// feedColon handles `file:line:col: msg` and mypy's `file:line: error: msg`.
func (d *diagParser) feedColon(ln line) {
	t := ln.text
	if m := reColonDiag.FindSubmatch(t); m != nil {
		msg := string(m[4])
		tool := toolLint
		switch {
		case hasPrefix(m[4], "- error TS") || hasPrefix(m[4], "- warning TS"):
			tool, msg = toolTsc, msg[2:]
		case hasSuffix(m[4], "]") && (bytes.Contains(m[4], []byte("[Error/")) || bytes.Contains(m[4], []byte("[Warning/"))):
			tool = toolEslint
		case reFlake8Code.Match(m[4]):
			tool = toolFlake8
		case hasSuffix(m[1], ".go"):
			tool = toolGo
		}
		// gcc's and clang's `x.c:7:13: warning: …` and `note: …` are no
		// errors: in a build or test step they are not failures.
		warning := bytes.Contains(m[4], []byte("[Warning/")) || hasPrefix(m[4], "- warning") ||
			hasPrefix(m[4], "warning: ") || hasPrefix(m[4], "note: ")
		d.add(ln.off, tool, m[1], m[2], m[3], msg, warning)
		return
	}
	if bytes.Contains(t, []byte(": error: ")) || bytes.Contains(t, []byte(": warning: ")) {
		if m := reMypyDiag.FindSubmatch(t); m != nil {
			d.add(ln.off, toolMypy, m[1], m[2], m[3], string(m[5]), string(m[4]) == "warning")
		}
	}
}

// feedSummary records counting summary lines.
func (d *diagParser) feedSummary(t []byte) bool {
	switch t[0] {
	case 0xe2, '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if !bytes.Contains(t, []byte(" problem")) {
			return false
		}
		if m := reEslintSummary.FindSubmatch(t); m != nil {
			d.summary, _ = strconv.Atoi(string(m[1]))
			d.tool = toolEslint
			return true
		}
	case 'F':
		if !hasPrefix(t, "Found ") {
			return false
		}
		if m := reFoundSummary.FindSubmatch(t); m != nil {
			d.summary, _ = strconv.Atoi(string(m[1]))
			return true
		}
	case 'S':
		if hasPrefix(t, "Success: ") && reMypySuccess.Match(t) {
			d.summary, d.tool = 0, toolMypy
			return true
		}
	}
	return false
}

func (d *diagParser) add(off int64, tool string, file, lineNo, col []byte, msg string, warning bool) {
	d.addAt(off, tool, file, lineNo, col, msg, warning)
}

func (d *diagParser) addAt(off int64, tool string, file, lineNo, col []byte, msg string, warning bool) {
	rel, _ := d.paths.Normalize(string(file))
	l, _ := strconv.Atoi(string(lineNo))
	c := 0
	if col != nil {
		c, _ = strconv.Atoi(string(col))
	}
	key := rel + ":" + string(lineNo) + ":" + string(col) + ":" + msg
	if _, dup := d.dedupe[key]; dup {
		return
	}
	if len(d.dedupe) < 4*d.lim.MaxFailures {
		d.dedupe[key] = struct{}{}
	}
	if warning && !d.countsWarnings() {
		return
	}
	d.total++
	if !warning {
		d.errors++
	}
	d.tool = tool
	if len(d.diags) >= d.lim.MaxFailures {
		d.omitted++
		return
	}
	f := Failure{File: rel, Line: l, Column: c, Kind: d.kind(tool), Message: capString(msg, d.lim.MaxMessageBytes), Offset: off}
	f.Frames = []Frame{{File: rel, Line: l, Column: c, Project: true}}
	d.diags = append(d.diags, diagnostic{f: f, tool: tool, warning: warning})
}

// countsWarnings: warnings are issues in lint/typecheck steps only; a
// compiler warning in a build or test step is not a failure.
func (d *diagParser) countsWarnings() bool {
	return d.phase == glv1.Phase_PHASE_LINT || d.phase == glv1.Phase_PHASE_TYPECHECK
}

// kind classifies a diagnostic by tool and by the phase of the step.
func (d *diagParser) kind(tool string) glv1.FailureKind {
	switch tool {
	case toolMypy:
		return glv1.FailureKind_FAILURE_KIND_TYPECHECK
	case toolEslint, toolFlake8:
		return glv1.FailureKind_FAILURE_KIND_LINT
	}
	switch d.phase {
	case glv1.Phase_PHASE_LINT:
		return glv1.FailureKind_FAILURE_KIND_LINT
	case glv1.Phase_PHASE_TYPECHECK:
		return glv1.FailureKind_FAILURE_KIND_TYPECHECK
	}
	return glv1.FailureKind_FAILURE_KIND_COMPILE
}

// issues is the number of lint/typecheck issues: the tool's own summary
// when it printed one, else the diagnostics counted.
func (d *diagParser) issues() int {
	if d.summary >= 0 && d.summary >= d.total {
		return d.summary
	}
	return d.total
}

// recognized reports whether any diagnostic or summary was seen.
func (d *diagParser) recognized() bool { return d.total > 0 || d.summary >= 0 }

// failures returns the kept diagnostics as failures.
func (d *diagParser) failures() []Failure {
	out := make([]Failure, 0, len(d.diags))
	for _, x := range d.diags {
		out = append(out, x.f)
	}
	return out
}
