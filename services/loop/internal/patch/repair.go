package patch

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"fmt"
	"strconv"
	"strings"
)

// hunkHeader matches a well-formed unified hunk header.
var hunkHeader = lazyregexp.New(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*?)\r?\n?$`)

// repaired is a unified diff after repairUnified.
type repaired struct {
	text string
	// positioned has one entry per hunk, in text order: false when the
	// hunk's "@@" line carried no line numbers.
	positioned []bool
}

// repairUnified fixes what models commonly get wrong in unified diffs
// without touching a single content line, so that a strict parser can read
// them: hunk headers whose line counts do not match the body are recounted,
// bare "@@" headers get placeholder numbers (the hunk is then located by
// context alone), empty lines inside a hunk become empty context lines,
// and "a/" "b/" prefixes of plain (non-git) "---"/"+++" headers are
// dropped as "patch -p1" would.
func repairUnified(text string) repaired {
	lines := strings.SplitAfter(text, "\n")
	var (
		out   strings.Builder
		r     repaired
		inGit bool
	)
	for i := 0; i < len(lines); {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "diff --git "):
			inGit = true
			out.WriteString(l)
			i++
		case isFileHeader(lines, i):
			if !inGit {
				l, lines[i+1] = stripPrefixes(l, lines[i+1])
			}
			out.WriteString(l)
			out.WriteString(lines[i+1])
			i += 2
		case strings.HasPrefix(l, "@@"):
			inGit = false
			header, body, positioned := repairHunk(l, lines[i+1:])
			out.WriteString(header)
			for _, b := range body {
				out.WriteString(b)
			}
			r.positioned = append(r.positioned, positioned)
			i += 1 + len(body)
		default:
			out.WriteString(l)
			i++
		}
	}
	r.text = out.String()
	return r
}

// isFileHeader reports whether lines[i] and lines[i+1] are a "---"/"+++"
// file header pair.
func isFileHeader(lines []string, i int) bool {
	return strings.HasPrefix(lines[i], "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ ")
}

// stripPrefixes drops the "a/" and "b/" of a plain header pair when both
// sides use them (or are /dev/null).
func stripPrefixes(oldLine, newLine string) (string, string) {
	oldName, oldRest := splitHeaderName(oldLine[4:])
	newName, newRest := splitHeaderName(newLine[4:])
	oldOK := oldName == "/dev/null" || strings.HasPrefix(oldName, "a/")
	newOK := newName == "/dev/null" || strings.HasPrefix(newName, "b/")
	if !oldOK || !newOK || (oldName == "/dev/null" && newName == "/dev/null") {
		return oldLine, newLine
	}
	strip := func(n string) string {
		if n == "/dev/null" {
			return n
		}
		return n[2:]
	}
	return "--- " + strip(oldName) + oldRest, "+++ " + strip(newName) + newRest
}

// splitHeaderName splits "name\ttimestamp\n" into the name and the rest.
func splitHeaderName(s string) (name, rest string) {
	end := strings.IndexAny(s, "\t\n")
	if end < 0 {
		return strings.TrimRight(s, "\r"), ""
	}
	name = strings.TrimRight(s[:end], "\r")
	return name, s[len(name):]
}

// repairHunk returns a hunk's header and body lines, recounted when the
// header's counts do not fit the body or the header has no numbers.
func repairHunk(header string, rest []string) (string, []string, bool) {
	m := hunkHeader.FindStringSubmatch(header)
	if m != nil {
		oldCount, newCount := count(m[2]), count(m[4])
		if n, ok := countedBody(rest, oldCount, newCount); ok {
			return header, emptyToContext(rest[:n]), true
		}
	}
	body := emptyToContext(greedyBody(rest))
	oldCount, newCount := 0, 0
	for _, b := range body {
		switch b[0] {
		case ' ':
			oldCount++
			newCount++
		case '-':
			oldCount++
		case '+':
			newCount++
		}
	}
	oldStart, newStart, section, positioned := 0, 0, "", m != nil
	if m != nil {
		oldStart, _ = strconv.Atoi(m[1])
		newStart, _ = strconv.Atoi(m[3])
		section = m[5]
	} else {
		section = bareSection(header)
		oldStart, newStart = min(oldCount, 1), min(newCount, 1)
	}
	h := fmt.Sprintf("@@ -%d,%d +%d,%d @@", oldStart, oldCount, newStart, newCount)
	if section != "" {
		h += " " + section
	}
	return h + "\n", body, positioned
}

// count parses a hunk header's optional count (absent means 1).
func count(s string) int {
	if s == "" {
		return 1
	}
	n, _ := strconv.Atoi(s)
	return n
}

// bareSection returns the text of a header like "@@ def f():" or "@@ x @@".
func bareSection(header string) string {
	t := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(header), "@"))
	return strings.TrimSpace(strings.TrimRight(t, "@"))
}

// countedBody reports whether the lines following a header hold exactly
// the counted old and new lines, and how many lines (a trailing "\ No
// newline" marker included) make up the body.
func countedBody(rest []string, oldCount, newCount int) (int, bool) {
	n := 0
	for ; (oldCount > 0 || newCount > 0) && n < len(rest); n++ {
		switch op := lineOp(rest[n]); op {
		case ' ':
			oldCount--
			newCount--
		case '-':
			oldCount--
		case '+':
			newCount--
		case '\\':
		default:
			return 0, false
		}
		if oldCount < 0 || newCount < 0 {
			return 0, false
		}
	}
	if oldCount != 0 || newCount != 0 {
		return 0, false
	}
	if n < len(rest) && lineOp(rest[n]) == '\\' {
		n++
	}
	return n, true
}

// greedyBody returns the hunk lines following a header: every line that
// can belong to a hunk, up to the next header, minus trailing blank lines.
func greedyBody(rest []string) []string {
	n := 0
	for n < len(rest) && lineOp(rest[n]) != 0 && !isFileHeader(rest, n) {
		n++
	}
	for n > 0 && isBlank(rest[n-1]) {
		n--
	}
	return rest[:n]
}

// lineOp returns the hunk role of a body line (' ' for an empty line),
// or 0 when the line cannot be part of a hunk.
func lineOp(l string) byte {
	if l == "" {
		return 0 // the end of the text
	}
	if isBlank(l) {
		return ' '
	}
	switch l[0] {
	case ' ', '-', '+':
		return l[0]
	case '\\':
		if strings.HasPrefix(l, `\ No newline`) {
			return '\\'
		}
	}
	return 0
}

// isBlank reports whether l is an empty line.
func isBlank(l string) bool { return l == "\n" || l == "\r\n" }

// emptyToContext rewrites empty body lines as empty context lines, the
// way editors that strip trailing spaces mangle them.
func emptyToContext(body []string) []string {
	out := make([]string, len(body))
	for i, b := range body {
		if isBlank(b) {
			b = " " + b
		}
		out[i] = b
	}
	return out
}
