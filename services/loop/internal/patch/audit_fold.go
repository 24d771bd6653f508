package patch

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"fmt"
	"strings"
)

// suspectObfuscated: a module, attribute or key name built from pieces of
// string literals ("_py" + "test.config", getattr(m, "plugin" +
// "manager")): honest code writes the name it means; splitting it only
// hides the name from a reader and from this audit.
const suspectObfuscated = "obfuscated-name"

// concatLiterals matches two or more string literals joined by + (or, in
// Python, written next to each other), as they appear in a line with
// comments removed.
var concatLiterals = lazyregexp.New(`(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')(?:\s*\+?\s*(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'))+`)

// literalPart matches one string literal of a concatenation.
var literalPart = lazyregexp.New(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'`)

// foldedMarker starts the entry foldConcatenations adds for the
// obfuscation rule, so that rule can tell a folded name from a literal
// written whole.
const foldedMarker = "⟨joined⟩"

// foldConcatenations adds to each line's string literals the value of
// every concatenation of literals on it, folded: patterns written for
// "_pytest.config" then see it however it was split. A folded value whose
// pieces are short (a name split on purpose, not a long message wrapped
// over lines) is also added with foldedMarker for the obfuscation rule.
func foldConcatenations(lines []srcLine) {
	for i := range lines {
		l := &lines[i]
		if !strings.ContainsAny(l.full, `"'`) {
			continue
		}
		for _, m := range concatLiterals.FindAllString(l.full, -1) {
			parts := literalPart.FindAllString(m, -1)
			if len(parts) < 2 {
				continue
			}
			var b strings.Builder
			short := true
			for _, p := range parts {
				inner := p[1 : len(p)-1]
				b.WriteString(inner)
				short = short && len(inner) <= 12 && !strings.ContainsAny(inner, " \t%{}")
			}
			l.strs = append(l.strs, b.String())
			if short {
				l.strs = append(l.strs, foldedMarker+b.String())
			}
		}
	}
}

// obfuscationPattern is the rule on folded names: one used where a name
// is looked up (getattr/setattr/hasattr, an import, sys.modules, a
// global, require).
func obfuscationPattern() auditPattern {
	return pat(suspectObfuscated, inStr, `^`+foldedMarker+`[\w./-]+$`,
		"library code may not build names from pieces (%s); write the name it means")
}

// assertModules are the names of assertion and test modules a JavaScript
// file can require; replacing their members makes every assertion pass.
var assertModules = lazyregexp.New(`^(node:)?assert(/strict)?$|^(chai|should|expect|power-assert|uvu/assert|tap|tape|ava|libtap|jest|vitest|mocha|node:test)$`)

// memberAssign matches an assignment to a member of an object, dotted or
// computed (x.equal = ..., x[k] = ...), not a comparison or an arrow.
var memberAssign = lazyregexp.New(`[\w$\])]\s*(\[[^\]]+\]|\.[\w$]+)\s*=[^=>]`)

// assertModuleChecks finds a JavaScript patch that requires an assertion
// or test module and assigns to members in the lines it adds: the shape
// of replacing that module's functions (assert[k] = function () {}),
// wherever in the file the two are. The module's own requirer is not
// traced: any added member assignment next to an added require of such a
// module is enough, which honest library code does not need.
func assertModuleChecks(s *source) []suspicion {
	if s.lang != langJS {
		return nil
	}
	req := -1
	for i, l := range s.lines {
		if !l.added || !strings.Contains(l.code, "require") && !strings.Contains(l.code, "import") {
			continue
		}
		for _, lit := range l.strs {
			if assertModules.MatchString(lit) {
				req = i
			}
		}
	}
	if req < 0 {
		return nil
	}
	for i, l := range s.lines {
		if l.added && i != req && memberAssign.MatchString(l.code) && !strings.Contains(l.code, "module.exports") &&
			!strings.HasPrefix(strings.TrimSpace(l.code), "exports.") {
			return []suspicion{{kind: suspectAssertionPatch, line: i + 1, text: strings.TrimSpace(l.text),
				why: fmt.Sprintf("library code may not replace the members of an assertion or test module (line %d requires %s); fix the code under test",
					req+1, strings.TrimSpace(s.lines[req].text))}}
		}
	}
	return nil
}
