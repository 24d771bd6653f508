package patch

import (
	"regexp"
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
var concatLiterals = regexp.MustCompile(`(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')(?:\s*\+?\s*(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'))+`)

// literalPart matches one string literal of a concatenation.
var literalPart = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'`)

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
		"library code may not build the names it looks up from pieces (%s); write the name it means").
		onLine(`\b(getattr|setattr|hasattr|delattr|__import__|import_module|modules|globals|vars|require|import)\b`)
}
