package patch

import (
	"path"
	"strings"
)

// auditLang is the language the suspicion audit reads a file as.
type auditLang int

// Languages with a pattern table; other files get the path and manifest
// rules only.
const (
	langOther auditLang = iota
	langPython
	langGo
	langJS
)

// langOf names a path's language by extension (a Go test file is a test,
// not Go library code, and never reaches the audit).
func langOf(p string) auditLang {
	switch strings.ToLower(path.Ext(p)) {
	case ".py", ".pyw":
		return langPython
	case ".go":
		return langGo
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts":
		return langJS
	}
	return langOther
}

// srcLine is one line of a file after the patch, as the audit reads it.
type srcLine struct {
	text string // as written
	// code is the line with comments removed and the contents of string
	// literals blanked (quotes kept): identifiers in strings or comments
	// cannot match a code pattern.
	code string
	// full is the line with comments removed and strings kept.
	full string
	// strs are the contents of the string literals that start on this
	// line (a multi-line string belongs to its first line).
	strs []string
	// comment is the comment text of the line (Go directives live there).
	comment string
	// cont marks a line that continues the previous statement (open
	// brackets, a backslash, a multi-line string).
	cont bool
	// depth is the bracket depth (Python) or brace depth (Go, JS) at the
	// start of the line.
	depth int
	added bool
}

// source is a file as the audit reads it: its lines after the patch,
// which of them the patch added, and the baseline content.
type source struct {
	path  string
	lang  auditLang
	lines []srcLine
	// old is the file's content before the patch ("" for a new file).
	old string
	// partial is true when the lines are only the patch's hunks (context
	// and added lines): scopes may start outside what is seen.
	partial bool
	// exempt caches frameworkExempt by framework.
	exempt map[string]bool
}

// newSource lexes a file's lines; added[i] marks line i+1 as added.
func newSource(p string, lines []string, added []bool, old string) *source {
	s := &source{path: p, lang: langOf(p), old: old}
	var lexed []srcLine
	switch s.lang {
	case langPython:
		lexed = lexPython(lines)
	case langGo:
		lexed = lexCLike(lines, false)
	case langJS:
		lexed = lexCLike(lines, true)
	default:
		lexed = make([]srcLine, len(lines))
		for i, l := range lines {
			lexed[i] = srcLine{text: l, code: l, full: l}
		}
	}
	for i := range lexed {
		lexed[i].added = i < len(added) && added[i]
	}
	foldConcatenations(lexed)
	s.lines = lexed
	return s
}

// lexPython splits Python lines into code, strings and comments,
// tracking triple-quoted strings and bracket continuation across lines.
func lexPython(lines []string) []srcLine {
	out := make([]srcLine, len(lines))
	var (
		inStr    bool
		delim    string // the closing quote(s) of the open string
		raw      bool
		lit      strings.Builder
		litLine  int
		depth    int
		backhang bool // the previous line ended with a backslash
	)
	for i, line := range lines {
		var code, full strings.Builder
		sl := &out[i]
		sl.text, sl.depth = line, depth
		sl.cont = inStr || depth > 0 || backhang
		backhang = false
		for j := 0; j < len(line); j++ {
			c := line[j]
			if inStr {
				switch {
				case c == '\\' && !raw && j+1 < len(line):
					lit.WriteByte(c)
					lit.WriteByte(line[j+1])
					full.WriteByte(c)
					full.WriteByte(line[j+1])
					j++
				case strings.HasPrefix(line[j:], delim):
					inStr = false
					out[litLine].strs = append(out[litLine].strs, lit.String())
					lit.Reset()
					code.WriteString(delim)
					full.WriteString(delim)
					j += len(delim) - 1
				default:
					lit.WriteByte(c)
					full.WriteByte(c)
				}
				continue
			}
			switch {
			case c == '#':
				sl.comment = line[j+1:]
				j = len(line)
			case c == '"' || c == '\'':
				delim = string(c)
				if strings.HasPrefix(line[j:], strings.Repeat(string(c), 3)) {
					delim = strings.Repeat(string(c), 3)
				}
				raw = strings.ContainsAny(stringPrefix(line[:j]), "rR")
				inStr, litLine = true, i
				code.WriteString(delim)
				full.WriteString(delim)
				j += len(delim) - 1
			default:
				switch c {
				case '(', '[', '{':
					depth++
				case ')', ']', '}':
					if depth > 0 {
						depth--
					}
				}
				code.WriteByte(c)
				full.WriteByte(c)
			}
		}
		if inStr && len(delim) == 1 {
			// A one-quote string ends at the line's end unless escaped.
			if strings.HasSuffix(line, "\\") {
				lit.WriteByte('\n')
			} else {
				inStr = false
				out[litLine].strs = append(out[litLine].strs, lit.String())
				lit.Reset()
			}
		} else if inStr {
			lit.WriteByte('\n')
			full.WriteByte('\n')
		}
		if !inStr && strings.HasSuffix(strings.TrimRight(code.String(), " \t"), "\\") {
			backhang = true
		}
		sl.code, sl.full = code.String(), full.String()
	}
	if inStr {
		out[litLine].strs = append(out[litLine].strs, lit.String())
	}
	return out
}

// stringPrefix returns the letters right before a quote (r, b, f, u and
// their pairs) when they are a string prefix rather than a name's end.
func stringPrefix(before string) string {
	i := len(before)
	for i > 0 && i > len(before)-2 && strings.ContainsRune("rRbBfFuU", rune(before[i-1])) {
		i--
	}
	if i > 0 && isIdentByte(before[i-1]) {
		return ""
	}
	return before[i:]
}

// isIdentByte reports whether c can be part of an identifier.
func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// lexCLike splits Go or JavaScript lines into code, strings and comments:
// "…" and '…' strings, `…` (Go raw strings, JS template literals) across
// lines, // and /* */ comments, and the brace depth at each line's start.
// JavaScript regular expression literals are not recognized; a quote in
// one only disturbs the rest of its line.
func lexCLike(lines []string, js bool) []srcLine {
	out := make([]srcLine, len(lines))
	var (
		inStr   bool
		delim   byte
		inBlock bool // inside /* */
		lit     strings.Builder
		litLine int
		depth   int
	)
	for i, line := range lines {
		var code, full, comment strings.Builder
		sl := &out[i]
		sl.text, sl.depth = line, depth
		sl.cont = inStr || inBlock
		for j := 0; j < len(line); j++ {
			c := line[j]
			switch {
			case inBlock:
				if strings.HasPrefix(line[j:], "*/") {
					inBlock = false
					j++
					code.WriteByte(' ')
					full.WriteByte(' ')
				} else {
					comment.WriteByte(c)
				}
			case inStr:
				switch {
				case c == '\\' && (delim != '`' || js) && j+1 < len(line):
					lit.WriteByte(c)
					lit.WriteByte(line[j+1])
					full.WriteByte(c)
					full.WriteByte(line[j+1])
					j++
				case c == delim:
					inStr = false
					out[litLine].strs = append(out[litLine].strs, lit.String())
					lit.Reset()
					code.WriteByte(c)
					full.WriteByte(c)
				default:
					lit.WriteByte(c)
					full.WriteByte(c)
				}
			case strings.HasPrefix(line[j:], "//"):
				comment.WriteString(line[j+2:])
				j = len(line)
			case strings.HasPrefix(line[j:], "/*"):
				inBlock = true
				j++
			case c == '"' || c == '\'' || c == '`':
				inStr, delim, litLine = true, c, i
				code.WriteByte(c)
				full.WriteByte(c)
			default:
				switch c {
				case '{':
					depth++
				case '}':
					if depth > 0 {
						depth--
					}
				}
				code.WriteByte(c)
				full.WriteByte(c)
			}
		}
		if inStr && delim != '`' {
			// "…" and '…' do not span lines.
			inStr = false
			out[litLine].strs = append(out[litLine].strs, lit.String())
			lit.Reset()
		} else if inStr {
			lit.WriteByte('\n')
		}
		sl.code, sl.full, sl.comment = code.String(), full.String(), comment.String()
	}
	if inStr {
		out[litLine].strs = append(out[litLine].strs, lit.String())
	}
	return out
}
