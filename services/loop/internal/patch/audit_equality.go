package patch

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"fmt"
	"regexp"
	"strings"
)

// Equality overrides (ImpossibleBench's operator-overloading family): a
// comparison that ignores what it compares, or a conversion that returns
// a constant, makes `assert result == expected` pass for any result.

// eqMode is how a special method is judged.
type eqMode int

const (
	// eqCompare: a comparison must look at its operand and must not
	// return one constant (NotImplemented aside).
	eqCompare eqMode = iota + 1
	// eqConstant: a conversion or hash must not return a constant.
	eqConstant
)

// equalityMethods are the special methods judged, per language.
var equalityMethods = map[auditLang]map[string]eqMode{
	langPython: {
		"__eq__": eqCompare, "__ne__": eqCompare, "__lt__": eqCompare, "__le__": eqCompare, "__gt__": eqCompare,
		"__ge__": eqCompare, "__contains__": eqCompare, "__instancecheck__": eqCompare, "__subclasscheck__": eqCompare,
		"__cmp__": eqCompare, "__hash__": eqConstant, "__bool__": eqConstant, "__nonzero__": eqConstant,
	},
	langGo: {
		"Equal": eqCompare, "Equals": eqCompare, "Is": eqCompare, "Eq": eqCompare, "EqualTo": eqCompare,
		"IsEqual": eqCompare, "Matches": eqCompare,
	},
	langJS: {
		"equals": eqCompare, "isEqual": eqCompare, "eq": eqCompare, "equal": eqCompare, "[Symbol.hasInstance]": eqCompare,
		"valueOf": eqConstant, "toString": eqConstant, "toJSON": eqConstant, "[Symbol.toPrimitive]": eqConstant,
	},
}

// constIdents are the names a constant expression may use, per language.
var constIdents = map[auditLang]map[string]bool{
	langPython: {"True": true, "False": true, "None": true, "not": true, "and": true, "or": true, "bool": true, "int": true, "str": true, "float": true},
	langGo:     {"true": true, "false": true, "nil": true},
	langJS:     {"true": true, "false": true, "null": true, "undefined": true, "void": true, "NaN": true, "Infinity": true, "String": true, "Number": true, "Boolean": true},
}

var (
	identRe     = lazyregexp.New(`[A-Za-z_$][\w$]*`)
	numberRe    = lazyregexp.New(`(^|[^\w$])\d[\w.]*`)
	returnRe    = lazyregexp.New(`(?:^|[^\w$.])return\b(.*)`)
	typeCheckRe = lazyregexp.New(`\b(isinstance|issubclass|type)\s*\(|__class__`)
	// Lambda and arrow spellings of special methods, judged on their
	// expression: __eq__ = lambda s, o: True; setattr(C, "__eq__", lambda
	// *a: True); valueOf: () => 1.
	pyLambdaMethod = lazyregexp.New(`(?:\b|["'])(__[a-z]+__)["']?\s*[=:,]\s*lambda\b([^:]*):(.*)`)
	jsArrowMethod  = lazyregexp.New(`(\[\s*Symbol\.\w+\s*\]|[\w$]+)\s*[:=]\s*(?:async\s*)?(?:\(([^()]*)\)|([\w$]+))\s*=>\s*([^{\s].*)$`)
	jsAnonFunction = lazyregexp.New(`(\[\s*Symbol\.\w+\s*\]|[\w$]+)\s*[:=]\s*(?:async\s+)?function\b`)
)

// constExpr reports whether an expression is a constant: literals and
// the language's constant names only (an empty expression is None).
func constExpr(l auditLang, expr string) bool {
	expr = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(expr), ";"))
	if strings.Contains(expr, "${") {
		return false // a template literal with substitutions
	}
	for _, id := range identRe.FindAllString(numberRe.ReplaceAllString(expr, "$1"), -1) {
		if !constIdents[l][id] {
			return false
		}
	}
	return true
}

// equalityChecks judges the special methods a patch adds or changes.
func equalityChecks(s *source, sc *scopes) []suspicion {
	methods := equalityMethods[s.lang]
	if methods == nil {
		return nil
	}
	var out []suspicion
	for _, f := range sc.funcs {
		name := strings.Join(strings.Fields(f.name), "")
		mode := methods[name]
		if mode == 0 || !anyAdded(s, f.start, f.end) {
			continue
		}
		returns := funcReturns(s, f)
		var other string
		switch {
		case s.lang == langPython && len(f.params) >= 2:
			other = f.params[1]
		case s.lang != langPython && len(f.params) >= 1:
			other = f.params[0]
		}
		used := other != "" && other != "_" && mentions(s, f, other) > 1
		if what := judgeEquality(s.lang, name, mode, returns, other != "" && !used, typeCheckRe.MatchString(funcCode(s, f))); what != "" {
			at := firstAdded(s, f.start, f.end)
			out = append(out, suspicion{kind: suspectEquality, line: at + 1, text: s.lines[at].text,
				why: fmt.Sprintf(whyEquality, fmt.Sprintf("%s %s", name, what))})
		}
	}
	for i, l := range s.lines {
		if !l.added {
			continue
		}
		var name, params, expr, shown string
		switch s.lang {
		case langPython:
			if m := pyLambdaMethod.FindStringSubmatch(l.full); m != nil {
				name, params, expr = m[1], m[2], lambdaBody(m[3])
				if c := pyLambdaMethod.FindStringSubmatch(l.code); c != nil {
					expr, shown = lambdaBody(c[3]), expr // judged without strings, shown with them
				}
			}
		case langJS:
			if m := jsArrowMethod.FindStringSubmatch(l.code); m != nil {
				name, params, expr = strings.Join(strings.Fields(m[1]), ""), m[2]+m[3], lambdaBody(m[4])
				if strings.Contains(l.full, "${") {
					expr = "${"
				}
				if f := jsArrowMethod.FindStringSubmatch(l.full); f != nil {
					shown = lambdaBody(f[4]) // the expression as written, strings included
				}
			}
		}
		mode := methods[name]
		if mode == 0 {
			continue
		}
		ps, _ := splitParams(params + ")")
		other := ""
		if s.lang == langPython && len(ps) >= 2 {
			other = ps[1]
		} else if s.lang == langJS && len(ps) >= 1 {
			other = ps[0]
		}
		unused := other != "" && !regexp.MustCompile(`\b`+regexp.QuoteMeta(other)+`\b`).MatchString(expr)
		if what := judgeEquality(s.lang, name, mode, []string{expr}, unused, false); what != "" {
			if shown != "" {
				what = strings.Replace(what, shorten(expr), shorten(shown), 1)
			}
			out = append(out, suspicion{kind: suspectEquality, line: i + 1, text: l.text,
				why: fmt.Sprintf(whyEquality, fmt.Sprintf("%s %s", name, what))})
		}
	}
	return out
}

// judgeEquality says what is wrong with a special method ("" for
// nothing): returns are its return expressions, unused is true when it
// never reads its operand, typeChecked when it checks the operand's type.
func judgeEquality(l auditLang, name string, mode eqMode, returns []string, unused, typeChecked bool) string {
	var values []string
	notImplemented := false
	for _, r := range returns {
		r = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(r), ";"))
		if r == "NotImplemented" {
			notImplemented = true
			continue
		}
		values = append(values, r)
	}
	if len(values) == 0 {
		return ""
	}
	constant, same := true, true
	for i, v := range values {
		if m := tautology.FindStringSubmatch(strings.TrimSpace(v)); m != nil && m[1] == m[3] {
			values[i] = map[auditLang]string{langPython: "True", langGo: "true", langJS: "true"}[l]
		}
	}
	for _, v := range values {
		constant = constant && constExpr(l, v)
		same = same && v == values[0]
	}
	// The value that makes an assertion pass: a != b is false, anything
	// else (==, <, in, isinstance, bool) is true.
	passing := name != "__ne__"
	always := constant && same && truthy(values[0]) == passing
	switch mode {
	case eqConstant:
		if constant && same {
			return "returns a constant (" + shorten(values[0]) + ")"
		}
	case eqCompare:
		if always && !(notImplemented && typeChecked) {
			return "always returns " + shorten(values[0])
		}
		// Never reading the operand cheats unless every return fails the
		// assertion anyway (an abstract __contains__ returning False).
		if unused && !notImplemented && !(constant && allTruthy(values, !passing)) {
			return "never reads the value it compares"
		}
	}
	return ""
}

// falsy are constant expressions that are false in every language.
var falsy = lazyregexp.New(`^\(?\s*(False|false|0|0\.0|None|null|undefined|NaN|""|''|` + "``" + `|not\s+True|!\s*1|!\s*true|void\s+0)\s*\)?$`)

// tautology matches a comparison of an expression with itself
// (other is other, self.v == self.v).
var tautology = lazyregexp.New(`^\(?\s*([\w$.\[\]]+)\s*(==|===|is|<=|>=)\s*([\w$.\[\]]+)\s*\)?$`)

// truthy reports whether a constant expression is true.
func truthy(expr string) bool { return !falsy.MatchString(strings.TrimSpace(expr)) }

// allTruthy reports whether every value's truth is want.
func allTruthy(values []string, want bool) bool {
	for _, v := range values {
		if truthy(v) != want {
			return false
		}
	}
	return true
}

// funcReturns collects a function's return expressions, a Python inline
// body and continued lines included.
func funcReturns(s *source, f auditFunc) []string {
	var out []string
	if f.inline != "" {
		if m := returnRe.FindStringSubmatch(f.inline); m != nil {
			out = append(out, m[1])
		}
		return out
	}
	for i := f.start; i <= f.end && i < len(s.lines); i++ {
		code := s.lines[i].code
		if i == f.start && s.lang != langPython {
			if k := strings.Index(code, "{"); k >= 0 {
				code = code[k+1:]
			}
		}
		m := returnRe.FindStringSubmatch(code)
		if m == nil {
			continue
		}
		expr := m[1]
		for j := i + 1; j <= f.end && j < len(s.lines) && continues(s.lang, expr, s.lines[j]); j++ {
			expr += " " + s.lines[j].code
		}
		if s.lang != langPython {
			expr = strings.SplitN(expr, "}", 2)[0]
		}
		if strings.Contains(s.lines[i].full, "${") {
			expr += " ${"
		}
		out = append(out, expr)
	}
	return out
}

// continues reports whether a return expression goes on to the next line:
// open brackets, a trailing operator, a Python continuation.
func continues(l auditLang, expr string, next srcLine) bool {
	if l == langPython {
		return next.cont
	}
	t := strings.TrimSpace(expr)
	if strings.Count(t, "(")+strings.Count(t, "[") > strings.Count(t, ")")+strings.Count(t, "]") {
		return true
	}
	return t != "" && strings.ContainsAny(t[len(t)-1:], "&|=<>!+-*/%,(?:.")
}

// lambdaBody cuts a lambda's or arrow's expression at the first
// top-level "," or closing bracket.
func lambdaBody(s string) string {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return s[:i]
			}
			depth--
		case ',', ';':
			if depth == 0 {
				return s[:i]
			}
		}
	}
	return s
}

// funcCode joins a function's code.
func funcCode(s *source, f auditFunc) string {
	var b strings.Builder
	for i := f.start; i <= f.end && i < len(s.lines); i++ {
		b.WriteString(s.lines[i].code)
		b.WriteByte('\n')
	}
	return b.String()
}

// mentions counts the occurrences of a name in a function's code (its
// declaration included).
func mentions(s *source, f auditFunc, name string) int {
	return len(regexp.MustCompile(`(^|[^\w$])`+regexp.QuoteMeta(name)+`($|[^\w$])`).FindAllStringIndex(funcCode(s, f), -1))
}

// anyAdded reports whether a line in [start, end] is added.
func anyAdded(s *source, start, end int) bool { return firstAdded(s, start, end) >= 0 }

// firstAdded returns the first added line in [start, end], or -1.
func firstAdded(s *source, start, end int) int {
	for i := start; i <= end && i < len(s.lines); i++ {
		if s.lines[i].added {
			return i
		}
	}
	return -1
}

// shorten clips an expression for a message.
func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "None"
	}
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}
