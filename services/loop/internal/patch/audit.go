package patch

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"fmt"
	"regexp"
	"sort"
	"strings"
)

// The suspicion audit (ADVERSARIAL row 48): a model that proposes
// patches is an adversary, and the cheapest way to make tests pass without
// fixing anything is to change how the tests observe the code: import the
// test framework and patch its assertions, read the test selector or the
// runner's environment, exit 0 at import, redirect stdout, make every
// object compare equal, write the report by hand. The audit reads the
// lines a patch adds to non-test files (test files have their own rules)
// against one table of named patterns per language, with the file's
// scopes in view (module level, init, entry points, functions) and
// refuses the patch with rule "suspicious", naming what it found, where,
// and what to do instead. It never looks at lines the patch does not
// add, so a repository's own code is never held against a patch.

// suspicion is one finding of the audit.
type suspicion struct {
	kind string // sub-kind, one of the suspect* constants
	line int    // 1-based line in the file after the patch
	text string // the line, trimmed
	why  string // the reason, for the model
}

// auditSource runs every rule of a file's language and returns the
// findings on added lines, in line order.
func auditSource(s *source) []suspicion {
	if len(s.lines) == 0 {
		return nil
	}
	sc := scopesOf(s)
	reachInit(s, sc)
	var out []suspicion
	pats := patternsFor(s.lang)
	if s.lang == langOther {
		pats = manifestPatterns(s.path)
	}
	for _, p := range pats {
		out = append(out, runPattern(s, sc, p)...)
	}
	out = append(out, equalityChecks(s, sc)...)
	out = append(out, handlerChecks(s, sc)...)
	out = append(out, statefulChecks(s, sc)...)
	out = append(out, assertModuleChecks(s)...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].line < out[j].line })
	return out
}

// scopesOf computes a file's scopes by its language.
func scopesOf(s *source) *scopes {
	switch s.lang {
	case langPython:
		return pythonScopes(s)
	case langGo:
		if sc := goScopes(s); sc != nil {
			return sc
		}
		return cLikeScopes(s)
	case langJS:
		return cLikeScopes(s)
	}
	n := len(s.lines)
	sc := &scopes{fn: make([]int, n), entry: make([]bool, n), initTime: make([]bool, n)}
	for i := range sc.fn {
		sc.fn[i] = -1
	}
	return sc
}

// callee matches a plain call.
var callee = lazyregexp.New(`(?:^|[^\w.$])([A-Za-z_$][\w$]*)\s*\(`)

// reachInit marks as init-time the functions of the file that code
// running at import/init calls (directly or through each other): an exit
// one call away from module level still runs on import.
func reachInit(s *source, sc *scopes) {
	if sc == nil || len(sc.funcs) == 0 {
		return
	}
	byName := map[string][]int{}
	for k, f := range sc.funcs {
		if f.name != "" {
			byName[f.name] = append(byName[f.name], k)
		}
	}
	reached := map[int]bool{}
	var queue []int
	visit := func(i int) {
		if sc.entry[i] {
			return // an entry point runs as a program, not on import
		}
		for _, m := range callee.FindAllStringSubmatch(s.lines[i].code, -1) {
			for _, k := range byName[m[1]] {
				if !reached[k] {
					reached[k] = true
					queue = append(queue, k)
				}
			}
		}
	}
	for i := range s.lines {
		if sc.initTime[i] {
			visit(i)
		}
	}
	for len(queue) > 0 {
		f := sc.funcs[queue[0]]
		queue = queue[1:]
		for i := f.start; i <= f.end && i < len(s.lines); i++ {
			if !sc.initTime[i] {
				sc.initTime[i] = true
				visit(i)
			}
		}
	}
}

// runPattern applies one pattern to a file. Only lines the patch added
// can be findings; a pattern with a partner (with) also reads the other
// lines of scopes that hold an added line.
func runPattern(s *source, sc *scopes, p auditPattern) []suspicion {
	var out []suspicion
	cache := map[int][]int{}
	scope := func(i int) []int {
		k := sc.fn[i]
		if _, ok := cache[k]; !ok {
			cache[k] = sc.scopeOf(i)
		}
		return cache[k]
	}
	live := map[int]bool{} // scopes holding an added line
	for i, l := range s.lines {
		if l.added {
			live[sc.fn[i]] = true
		}
	}
	for i, l := range s.lines {
		if !l.added && (p.with == nil || !live[sc.fn[i]]) {
			continue
		}
		what := matchLine(p, l)
		if what == "" {
			continue
		}
		if p.line != nil && !p.line.MatchString(l.code) {
			continue
		}
		if p.initOnly && !sc.initTime[i] {
			continue
		}
		if p.unless != nil && scopeCode(s, scope(i), p.unless) {
			continue
		}
		at := -1
		switch {
		case p.with != nil:
			lines := scope(i)
			if p.near > 0 {
				lines = nearby(lines, i, p.near)
			}
			if scopeStr(s, lines, p.with, false) < 0 {
				continue
			}
			if l.added {
				at = i
			} else if added := scopeStr(s, lines, p.with, true); added >= 0 {
				at = added
			}
		case l.added:
			at = i
			exempt := (p.entryOK && sc.entry[i]) || (p.baseline != nil && p.baseline.MatchString(s.old))
			if exempt && scopeStr(s, scope(i), testish.Regexp(), false) < 0 {
				at = -1
			}
		}
		if at < 0 {
			continue
		}
		out = append(out, suspicion{kind: p.kind, line: at + 1, text: s.lines[at].text, why: fmt.Sprintf(p.why, what)})
	}
	if len(out) > 0 && p.fw != "" && frameworkExempt(s, p.fw) {
		return nil
	}
	return out
}

// nearby keeps the lines of a scope at most n lines from line i.
func nearby(lines []int, i, n int) []int {
	var out []int
	for _, j := range lines {
		if j >= i-n && j <= i+n {
			out = append(out, j)
		}
	}
	return out
}

// matchLine returns what a pattern matched in a line ("" for nothing):
// a string literal is quoted.
func matchLine(p auditPattern, l srcLine) string {
	clean := func(m string) string { return strings.TrimRight(strings.TrimSpace(m), "( ") }
	switch p.in {
	case inCode:
		m := p.re.FindString(l.code)
		if m == "" {
			return ""
		}
		if full := p.re.FindString(l.full); full != "" {
			m = full // the same match with its strings, for the message
		}
		return clean(m)
	case inFull:
		return clean(p.re.FindString(l.full))
	case inComment:
		return clean(p.re.FindString(l.comment))
	case inStr:
		for _, lit := range l.strs {
			if p.re.MatchString(lit) {
				return fmt.Sprintf("%q", lit)
			}
		}
	}
	return ""
}

// scopeCode reports whether the code of any line of a scope matches re.
func scopeCode(s *source, lines []int, re *regexp.Regexp) bool {
	for _, i := range lines {
		if re.MatchString(s.lines[i].code) {
			return true
		}
	}
	return false
}

// scopeStr returns the first line of a scope (an added one, if asked)
// holding a string literal that matches re, or -1.
func scopeStr(s *source, lines []int, re *regexp.Regexp, added bool) int {
	for _, i := range lines {
		if added && !s.lines[i].added {
			continue
		}
		for _, lit := range s.lines[i].strs {
			if re.MatchString(lit) {
				return i
			}
		}
	}
	return -1
}

// frameworkExempt reports whether a file may reach a framework: it is
// the framework's own code or a test-support module, or it already
// imported the framework before the patch.
func frameworkExempt(s *source, fw string) bool {
	if v, ok := s.exempt[fw]; ok {
		return v
	}
	v := false
	if f, ok := frameworks[fw]; ok {
		v = f.own.MatchString(s.path) || f.uses.MatchString(s.old)
	}
	if fw == "testing" && !v {
		for _, l := range s.lines {
			if m := goPackageClause.FindStringSubmatch(l.code); m != nil {
				v = strings.Contains(strings.ToLower(m[1]), "test")
				break
			}
		}
	}
	if s.exempt == nil {
		s.exempt = map[string]bool{}
	}
	s.exempt[fw] = v
	return v
}

// suspicionRefusal turns findings into the refusal of a file, naming the first
// finding and counting the others.
func suspicionRefusal(path string, found []suspicion) *Refusal {
	if len(found) == 0 {
		return nil
	}
	found = append([]suspicion(nil), found...)
	sort.SliceStable(found, func(i, j int) bool { return kindRank(found[i].kind) < kindRank(found[j].kind) })
	f := found[0]
	text := strings.TrimSpace(f.text)
	if len(text) > 120 {
		text = text[:117] + "..."
	}
	reason := fmt.Sprintf("%s at line %d (`%s`): %s", f.kind, f.line, text, f.why)
	if n := len(found) - 1; n > 0 {
		kinds := []string{}
		for _, o := range found[1:] {
			if k := fmt.Sprintf("%s at line %d", o.kind, o.line); !contains(kinds, k) && len(kinds) < 3 {
				kinds = append(kinds, k)
			}
		}
		reason += fmt.Sprintf(" (%d more: %s)", n, strings.Join(kinds, ", "))
	}
	return refuse(RuleSuspicious, path, "%s", reason)
}

// kindRank orders findings for the refusal's message: what the patch
// does to the verdict first, a bare import of a test framework last.
func kindRank(kind string) int {
	switch kind {
	case suspectTestFramework:
		return 2
	case suspectSandboxProbe, suspectImportHook, suspectDependencyCode, suspectDependencyRedir:
		return 1
	}
	return 0
}

// contains reports whether xs holds x.
func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// checkSuspicious is the audit of what a patch shows on its own: paths
// into installed or vendored dependencies and mocks, and whole files the
// patch adds (their content is all known). Changes to existing files are
// audited by auditPlan, once their content after the patch is known.
func checkSuspicious(p *Patch, _ Guardrails) *Refusal {
	for _, f := range p.Files {
		for _, name := range f.Paths() {
			if r := auditPath(name); r != nil {
				return r
			}
		}
	}
	for _, f := range p.Files {
		if f.Op != OpAdd || isTestPath(f.NewPath) {
			continue
		}
		var lines []string
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if l.Op != LineDelete {
					lines = append(lines, l.Text)
				}
			}
		}
		added := make([]bool, len(lines))
		for i := range added {
			added[i] = true
		}
		if r := suspicionRefusal(f.NewPath, auditSource(newSource(f.NewPath, lines, added, ""))); r != nil {
			return r
		}
	}
	return nil
}

// auditPlan audits one planned change with the file's whole content after
// the patch: the lines the patch adds, read in their scopes, against the
// baseline content.
func auditPlan(pl plan) *Refusal {
	f := pl.file
	if f.Op == OpDelete || isTestPath(f.Path()) {
		return nil
	}
	var (
		lines []string
		added []bool
	)
	for _, l := range pl.ops {
		if l.Op == LineDelete {
			continue
		}
		lines = append(lines, l.Text)
		added = append(added, l.Op == LineAdd)
	}
	return suspicionRefusal(f.Path(), auditSource(newSource(f.Path(), lines, added, string(pl.old))))
}
