package patch

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"path"
	"strings"
)

// auditFunc is a function (or method) of an audited file.
type auditFunc struct {
	name   string
	params []string
	// start and end are the 0-based indexes of the header's first line
	// and the body's last line.
	start, end int
	// inline is a Python body written on the header line (def f(): x).
	inline string
	// locals are other names the function declares outside its body
	// (Go named results).
	locals []string
}

// scopes says, for each line of a source, where it runs.
type scopes struct {
	funcs []auditFunc
	// fn is the innermost function enclosing each line, or -1.
	fn []int
	// entry marks lines of an entry point: a file that is a program
	// (__main__.py, cli.py, a main package, a script with a shebang) or
	// an `if __name__ == "__main__":` / `if (require.main === module)`
	// block.
	entry []bool
	// initTime marks lines that run when the module is imported or the
	// package initialized: Python module level and class bodies, Go init
	// functions and package-level initializers, JavaScript top level.
	initTime []bool
}

// scopeOf returns the line indexes sharing line i's scope: its innermost
// function, or every line outside functions.
func (sc *scopes) scopeOf(i int) []int {
	var out []int
	if f := sc.fn[i]; f >= 0 {
		for j := sc.funcs[f].start; j <= sc.funcs[f].end && j < len(sc.fn); j++ {
			out = append(out, j)
		}
		return out
	}
	for j, f := range sc.fn {
		if f < 0 {
			out = append(out, j)
		}
	}
	return out
}

// entryFile reports whether a whole file is a program's entry point,
// where reading the command line and exiting are its job.
func entryFile(s *source) bool {
	base := path.Base(s.path)
	stem := strings.TrimSuffix(base, path.Ext(base))
	switch stem {
	case "__main__", "cli", "setup", "manage", "main":
		if s.lang != langGo {
			return true
		}
	}
	if strings.HasPrefix(stem, "cli_") || strings.HasSuffix(stem, "_cli") || strings.HasSuffix(stem, "-cli") || testNamed.MatchString(base) {
		return true // a CLI module, or a test script the test globs miss
	}
	for _, dir := range strings.Split(path.Dir(s.path), "/") {
		switch dir {
		case "bin", "scripts", "script", "cmd", "cli", "tools", "examples", "example", "demo", "demos",
			"bench", "benchmark", "benchmarks", "fuzz", "fuzzer", "fuzzing":
			return true
		}
	}
	if len(s.lines) > 0 && strings.HasPrefix(s.lines[0].text, "#!") {
		return true
	}
	if s.lang == langGo {
		for _, l := range s.lines {
			if m := goPackageClause.FindStringSubmatch(l.code); m != nil {
				return m[1] == "main"
			}
		}
	}
	return false
}

var goPackageClause = lazyregexp.New(`^\s*package\s+(\w+)`)

// testNamed matches file names of tests that the test globs miss
// (test.js, commander-tests.ts, index.test-d.ts).
var testNamed = lazyregexp.New(`^([^/]*[-_.])?(tests?|spec)([-_.][^/]*)?\.\w+$`)

// pyHeader matches the start of a Python compound statement.
var (
	pyDef      = lazyregexp.New(`^\s*(?:async\s+)?def\s+(\w+)\s*\(`)
	pyClass    = lazyregexp.New(`^\s*class\s+\w+`)
	pyMainIf   = lazyregexp.New(`^\s*if\s+(?:__name__\s*==\s*["']__main__["']|["']__main__["']\s*==\s*__name__)\s*:`)
	pyCompound = lazyregexp.New(`^\s*(?:if|elif|else|for|while|with|try|except|finally|async\s+for|async\s+with|match|case)\b.*:\s*$`)
)

// pyBlock is an open Python block while scanning.
type pyBlock struct {
	indent int
	fn     int // index into funcs for a def, else -1
	main   bool
}

// pythonScopes finds defs, classes and __main__ blocks by indentation.
func pythonScopes(s *source) *scopes {
	n := len(s.lines)
	sc := &scopes{fn: make([]int, n), entry: make([]bool, n), initTime: make([]bool, n)}
	whole := entryFile(s)
	var stack []pyBlock
	lastCode := -1
	closeTo := func(indent int) {
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			if f := stack[len(stack)-1].fn; f >= 0 {
				sc.funcs[f].end = max(lastCode, sc.funcs[f].start)
			}
			stack = stack[:len(stack)-1]
		}
	}
	record := func(i int) {
		sc.fn[i], sc.entry[i], sc.initTime[i] = -1, whole, true
		for _, b := range stack {
			if b.fn >= 0 {
				sc.fn[i], sc.initTime[i] = b.fn, false
			}
			if b.main {
				sc.entry[i] = true
			}
		}
	}
	for i := 0; i < n; i++ {
		l := s.lines[i]
		if l.cont && i > 0 {
			sc.fn[i], sc.entry[i], sc.initTime[i] = sc.fn[i-1], sc.entry[i-1], sc.initTime[i-1]
			if strings.TrimSpace(l.code) != "" {
				lastCode = i
			}
			continue
		}
		if strings.TrimSpace(l.code) == "" {
			record(i)
			continue
		}
		indent := indentWidth(l.text)
		closeTo(indent)
		header, last := pyLogical(s, i)
		switch {
		case pyDef.MatchString(header):
			f := auditFunc{name: pyDef.FindStringSubmatch(header)[1], start: i, end: last}
			params, rest := splitParams(header[strings.Index(header, "(")+1:])
			f.params = params
			if k := topLevelColon(rest); k >= 0 {
				f.inline = strings.TrimSpace(rest[k+1:])
			}
			sc.funcs = append(sc.funcs, f)
			idx := len(sc.funcs) - 1
			if f.inline == "" {
				stack = append(stack, pyBlock{indent: indent, fn: idx})
			}
			record(i)
			if f.inline != "" {
				sc.fn[i], sc.initTime[i] = idx, false
			}
		case pyMainIf.MatchString(s.lines[i].full):
			record(i)
			stack = append(stack, pyBlock{indent: indent, fn: -1, main: true})
		case pyClass.MatchString(header) || pyCompound.MatchString(header):
			record(i)
			if !strings.HasSuffix(strings.TrimSpace(header), ":") {
				break // a one-line compound statement opens no block
			}
			stack = append(stack, pyBlock{indent: indent, fn: -1})
		default:
			record(i)
		}
		lastCode = i
	}
	closeTo(0)
	return sc
}

// pyLogical joins the code of the logical line starting at i and returns
// it with the index of its last physical line.
func pyLogical(s *source, i int) (string, int) {
	var b strings.Builder
	b.WriteString(s.lines[i].code)
	j := i + 1
	for ; j < len(s.lines) && s.lines[j].cont; j++ {
		b.WriteByte(' ')
		b.WriteString(s.lines[j].code)
	}
	return b.String(), j - 1
}

// indentWidth measures leading whitespace, a tab counting 8.
func indentWidth(line string) int {
	w := 0
	for _, c := range line {
		switch c {
		case ' ':
			w++
		case '\t':
			w += 8 - w%8
		default:
			return w
		}
	}
	return w
}

// splitParams reads a parameter list from just after its "(" and returns
// the parameter names and what follows the closing ")".
func splitParams(s string) ([]string, string) {
	raw, rest := splitArgs(s)
	return paramNames(raw), rest
}

// splitArgs splits a parenthesized list, read from just after its "(",
// at top-level commas, and returns the pieces and what follows the ")".
func splitArgs(s string) ([]string, string) {
	depth, start := 0, 0
	var raw []string
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return append(raw, s[start:i]), s[i+1:]
			}
			depth--
		case ',':
			if depth == 0 {
				raw = append(raw, s[start:i])
				start = i + 1
			}
		}
	}
	return append(raw, s[start:]), ""
}

// paramIdent is the name part of a parameter declaration.
var paramIdent = lazyregexp.New(`^[.*&\s]*(?:\.\.\.)?([A-Za-z_$][\w$]*)`)

// paramNames extracts names from raw parameters ("other: T = x",
// "*args", "b T", "{a, b}").
func paramNames(raw []string) []string {
	var out []string
	for _, p := range raw {
		if m := paramIdent.FindStringSubmatch(strings.TrimSpace(p)); m != nil {
			out = append(out, m[1])
		}
	}
	return out
}

// topLevelColon finds the first ":" outside brackets, or -1.
func topLevelColon(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ':':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// C-like function headers: what precedes a "{" that opens a body.
var (
	goFuncHeader = lazyregexp.New(`\bfunc\s*(?:\([^)]*\)\s*)?(\w*)\s*(?:\[[^\]]*\])?\s*\(`)
	jsArrowEnd   = lazyregexp.New(`=>\s*$`)
	jsArrowName  = lazyregexp.New(`([\w$]+)\s*[:=]\s*(?:async\s*)?(?:\(([^()]*)\)|([\w$]+))\s*=>\s*$`)
	jsFunction   = lazyregexp.New(`\bfunction\b\s*\*?\s*([\w$]*)\s*\(([^()]*)\)\s*(?::[^{]*)?$`)
	jsMethod     = lazyregexp.New(`(?:^|[\s,{;}])(?:(?:async|static|get|set|public|private|protected|override)\s+)*(\[[^\]]+\]|[\w$]+)\s*\(([^()]*)\)\s*(?::[^{;]*)?$`)
	jsMainIf     = lazyregexp.New(`\bif\s*\(\s*(?:require\.main\s*===?\s*module|module\s*===?\s*require\.main|import\.meta\.main)\b`)
	jsKeywords   = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true, "with": true, "function": true, "return": true}
)

// cBlock is an open brace while scanning C-like code.
type cBlock struct {
	fn   int // index into funcs, or -1
	main bool
}

// cLikeScopes finds function bodies (and, for JavaScript, entry-point
// blocks) by brace matching on code with strings and comments removed.
func cLikeScopes(s *source) *scopes {
	n := len(s.lines)
	sc := &scopes{fn: make([]int, n), entry: make([]bool, n), initTime: make([]bool, n)}
	whole := entryFile(s)
	var stack []cBlock
	state := func() (fn int, main bool) {
		fn = -1
		for _, b := range stack {
			if b.fn >= 0 {
				fn = b.fn
			}
			main = main || b.main
		}
		return fn, main
	}
	for i, l := range s.lines {
		fn, main := state()
		opened := -1
		for j := 0; j < len(l.code); j++ {
			switch l.code[j] {
			case '{':
				b := cBlock{fn: -1}
				pre, start := bracePrefix(s, i, j)
				if f, ok := funcHeader(s.lang, pre); ok {
					f.start, f.end = start, i
					sc.funcs = append(sc.funcs, f)
					b.fn = len(sc.funcs) - 1
					if opened < 0 {
						opened = b.fn
					}
				} else if s.lang == langJS && jsMainIf.MatchString(pre) {
					b.main = true
				}
				stack = append(stack, b)
			case '}':
				if len(stack) > 0 {
					if f := stack[len(stack)-1].fn; f >= 0 {
						sc.funcs[f].end = i
					}
					stack = stack[:len(stack)-1]
				}
			}
		}
		if opened >= 0 && fn < 0 {
			fn = opened
		}
		sc.fn[i], sc.entry[i] = fn, whole || main
		sc.initTime[i] = fn < 0
		if s.lang == langGo && fn >= 0 && sc.funcs[fn].name == "init" {
			sc.initTime[i] = true
		}
	}
	for _, b := range stack { // unclosed bodies run to the end
		if b.fn >= 0 {
			sc.funcs[b.fn].end = n - 1
		}
	}
	return sc
}

// bracePrefix is the code before the "{" at line i, column j, and the
// line it starts on: that line's text before it, joined with earlier lines
// while parentheses are open (a parameter list over several lines) or the
// line is empty.
func bracePrefix(s *source, i, j int) (string, int) {
	pre, start := s.lines[i].code[:j], i
	for k := i - 1; k >= 0 && k >= i-8; k-- {
		t := strings.TrimSpace(pre)
		if t != "" && strings.Count(t, ")") <= strings.Count(t, "(") {
			break
		}
		pre, start = s.lines[k].code+" "+pre, k
	}
	if k := strings.LastIndexAny(pre, ";{}"); k >= 0 {
		pre = pre[k+1:]
	}
	return strings.TrimRight(pre, " \t"), start
}

// funcHeader decides whether code before a "{" opens a function body and
// names it.
func funcHeader(l auditLang, pre string) (auditFunc, bool) {
	switch l {
	case langGo:
		locs := goFuncHeader.FindAllStringSubmatchIndex(pre, -1)
		if len(locs) == 0 {
			return auditFunc{}, false
		}
		loc := locs[len(locs)-1]
		raw, _ := splitArgs(pre[loc[1]:])
		return auditFunc{name: pre[loc[2]:loc[3]], params: goParamNames(raw)}, true
	case langJS:
		if m := jsFunction.FindStringSubmatch(pre); m != nil {
			params, _ := splitParams(m[2] + ")")
			f := auditFunc{name: m[1], params: params}
			if n := jsAnonFunction.FindStringSubmatch(pre); f.name == "" && n != nil {
				f.name = strings.Join(strings.Fields(n[1]), "") // valueOf = function () {…}
			}
			return f, true
		}
		if jsArrowEnd.MatchString(pre) {
			f := auditFunc{}
			if m := jsArrowName.FindStringSubmatch(pre); m != nil {
				f.name = m[1]
				params, _ := splitParams(m[2] + m[3] + ")")
				f.params = params
			}
			return f, true
		}
		if m := jsMethod.FindStringSubmatch(pre); m != nil && !jsKeywords[m[1]] {
			params, _ := splitParams(m[2] + ")")
			return auditFunc{name: m[1], params: params}, true
		}
	}
	return auditFunc{}, false
}

// goParamNames turns Go parameter declarations ("a, b int", "x T") into
// names; a list of bare types ("int, string") has none.
func goParamNames(raw []string) []string {
	typed := false
	for _, p := range raw {
		typed = typed || len(strings.Fields(p)) >= 2
	}
	if !typed {
		return nil
	}
	var out []string
	for _, p := range raw {
		if f := strings.Fields(p); len(f) >= 1 {
			out = append(out, f[0])
		}
	}
	return out
}
