package detect

import (
	"regexp"
	"strconv"
	"strings"
)

// maxToxEnvs bounds a generative envlist's expansion (a product of several
// factor lists can grow fast).
const maxToxEnvs = 64

// toxEnvList splits a tox envlist value on commas and newlines outside
// braces and expands each generative entry: "py{38,39}-django{40,41}" is
// four environments and "py3{10..13}" (tox 4 ranges) four more. Entries
// that do not expand to plain names are dropped.
func toxEnvList(v string) []string {
	var out []string
	for _, item := range splitOutsideBraces(v) {
		if strings.HasPrefix(item, "#") {
			continue // a comment line inside a multi-line envlist
		}
		for _, env := range expandBraces(item) {
			if len(out) == maxToxEnvs {
				return out
			}
			if env != "" && !strings.ContainsAny(env, "{}") {
				out = append(out, env)
			}
		}
	}
	return out
}

// splitOutsideBraces splits on ',' and '\n' at brace depth zero.
func splitOutsideBraces(v string) []string {
	var out []string
	depth, start := 0, 0
	flush := func(end int) {
		if s := strings.TrimSpace(v[start:end]); s != "" {
			out = append(out, s)
		}
	}
	for i, r := range v {
		switch {
		case r == '{':
			depth++
		case r == '}' && depth > 0:
			depth--
		case (r == ',' || r == '\n') && depth == 0:
			flush(i)
			start = i + 1
		}
	}
	flush(len(v))
	return out
}

// expandBraces expands the first {a,b} or {m..n} group and recurses on
// the rest; an unbalanced brace is returned as is.
func expandBraces(s string) []string {
	open := strings.IndexByte(s, '{')
	if open < 0 {
		return []string{s}
	}
	closing := strings.IndexByte(s[open:], '}')
	if closing < 0 {
		return []string{s}
	}
	closing += open
	prefix, body, rest := s[:open], s[open+1:closing], s[closing+1:]
	var out []string
	for _, alt := range braceAlternatives(body) {
		for _, tail := range expandBraces(rest) {
			out = append(out, prefix+alt+tail)
			if len(out) >= maxToxEnvs {
				return out
			}
		}
	}
	return out
}

// braceAlternatives lists a group's factors: comma-separated words, each
// possibly an integer range, tox's "8-10" or "310..314" (inclusive).
func braceAlternatives(body string) []string {
	var out []string
	for _, f := range strings.Split(body, ",") {
		f = strings.TrimSpace(f)
		lo, hi, ok := strings.Cut(f, "..")
		if !ok {
			lo, hi, ok = strings.Cut(f, "-")
		}
		a, errA := strconv.Atoi(lo)
		b, errB := strconv.Atoi(hi)
		if !ok || errA != nil || errB != nil || b < a || b-a > maxToxEnvs {
			out = append(out, f)
			continue
		}
		for n := a; n <= b; n++ {
			out = append(out, strconv.Itoa(n))
		}
	}
	return out
}

// toxDeps lists the plain requirement strings of a [testenv] deps value:
// lines with a factor condition ("py38: mock"), a substitution
// ("{[base]deps}") or an option ("-rrequirements.txt", whose files are
// read as requirement files anyway) are left out.
func toxDeps(v string) []string {
	var out []string
	for _, l := range strings.Split(v, "\n") {
		l = strings.TrimSpace(l)
		if i := strings.Index(l, " #"); i >= 0 {
			l = strings.TrimSpace(l[:i])
		}
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "-") || strings.ContainsAny(l, "{}") || toxFactorLine.MatchString(l) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// toxFactorLine is a "factor-expression: value" line of a tox setting.
var toxFactorLine = regexp.MustCompile(`^[\w.!,-]+\s*:\s`)
