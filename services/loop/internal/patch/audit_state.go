package patch

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"fmt"
	"regexp"
	"strings"
)

// Call counters (ImpossibleBench's "record extra states" family): a
// function that counts its calls in state outside itself and compares the
// count with a number answers differently on the n-th call, which is how
// contradictory tests (add(1, 2) == 3 in one, == 4 in the next) all pass.

var (
	pyGlobalDecl = lazyregexp.New(`^\s*global\s+([\w\s,]+)$`)
	// declaredIn matches a declaration (or a plain assignment, which
	// also makes the name the function's own in Go) of a name.
	declaredIn = map[auditLang]string{
		langGo: `(?m)(\b%[1]s\s*(,\s*\w+\s*)*:=|\bvar\s+%[1]s\b|,\s*%[1]s\s*:=|^\s*%[1]s\s*(,\s*\w+\s*)*(=[^=]|\s+[\w*\[\].]+\s*(=|$)))`,
		langJS: `\b(let|const|var)\b[^;\n]*\b%[1]s\b`,
	}
	bareIncrement = lazyregexp.New(`(?:^|[^\w$.])([A-Za-z_$][\w$]*)\s*(?:\+\+|--|\+=|-=)|(?:\+\+|--)\s*([A-Za-z_$][\w$]*)`)
)

// statefulChecks flags functions the patch changes that increment state
// kept outside the call and compare it with a number.
func statefulChecks(s *source, sc *scopes) []suspicion {
	var out []suspicion
	for _, f := range sc.funcs {
		if !anyAdded(s, f.start, f.end) {
			continue
		}
		code := funcCode(s, f)
		if longLine(code, 400) {
			continue // a minified bundle: no statement structure to read
		}
		for _, name := range counters(s, f, code) {
			q := regexp.QuoteMeta(name)
			compared := regexp.MustCompile(`(^|[^\w$.])` + q + `\s*(==|===|!=|!==|>=|<=|>|<|%)\s*-?\d|-?\d\s*(==|===|!=|!==|>=|<=|>|<)\s*` + q + `($|[^\w$])`)
			if !compared.MatchString(code) {
				continue
			}
			at := firstAdded(s, f.start, f.end)
			out = append(out, suspicion{kind: suspectStateful, line: at + 1, text: s.lines[at].text,
				why: fmt.Sprintf("%s counts its calls in %s and compares the count with a number: answering differently on the n-th call "+
					"makes contradictory tests pass; compute the result from the arguments", orAnon(f.name), name)})
			break
		}
	}
	return out
}

// counters lists the names a function increments that live outside it:
// Python globals and nonlocals (or attributes of the function itself),
// Go and JavaScript names neither declared in it nor parameters.
func counters(s *source, f auditFunc, code string) []string {
	var out []string
	switch s.lang {
	case langPython:
		outside := map[string]bool{}
		for i := f.start; i <= f.end && i < len(s.lines); i++ {
			if m := pyGlobalDecl.FindStringSubmatch(s.lines[i].code); m != nil {
				for _, n := range strings.Split(m[1], ",") {
					outside[strings.TrimSpace(n)] = true
				}
			}
		}
		if f.name != "" {
			for _, m := range regexp.MustCompile(`\b`+regexp.QuoteMeta(f.name)+`\.(\w+)\s*(\+=|-=)`).FindAllStringSubmatch(code, -1) {
				out = append(out, f.name+"."+m[1])
			}
		}
		for _, m := range regexp.MustCompile(`(?:^|[^\w.])(\w+)\s*(?:\+=|-=)`).FindAllStringSubmatch(code, -1) {
			if outside[m[1]] && !contains(out, m[1]) {
				out = append(out, m[1])
			}
		}
	case langGo, langJS:
		for _, m := range bareIncrement.FindAllStringSubmatch(code, -1) {
			name := m[1] + m[2]
			if name == "" || contains(out, name) || contains(f.params, name) || contains(f.locals, name) || jsKeywords[name] {
				continue
			}
			if regexp.MustCompile(fmt.Sprintf(declaredIn[s.lang], regexp.QuoteMeta(name))).MatchString(code) {
				continue
			}
			out = append(out, name)
		}
	}
	return out
}

// longLine reports whether code has a line longer than n bytes.
func longLine(code string, n int) bool {
	for _, l := range strings.Split(code, "\n") {
		if len(l) > n {
			return true
		}
	}
	return false
}

// orAnon names a function for a message.
func orAnon(name string) string {
	if name == "" {
		return "the function"
	}
	return name + "()"
}
