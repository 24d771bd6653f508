package web

import "strings"

// maxDiffLines bounds how many lines of one patch the page renders; the full
// text stays in result.json and the run record.
const maxDiffLines = 4000

// diffLine is one rendered line of a unified diff.
type diffLine struct {
	// Class is add, del, hunk, file or ctx.
	Class string
	Text  string
}

// diffLines classifies the lines of a unified diff for colouring.
func diffLines(diff string) (lines []diffLine, truncated bool) {
	raw := strings.Split(strings.TrimRight(diff, "\n"), "\n")
	if len(raw) > maxDiffLines {
		raw, truncated = raw[:maxDiffLines], true
	}
	for _, l := range raw {
		lines = append(lines, diffLine{Class: diffClass(l), Text: l})
	}
	return lines, truncated
}

func diffClass(l string) string {
	switch {
	case strings.HasPrefix(l, "+++ "), strings.HasPrefix(l, "--- "), strings.HasPrefix(l, "diff "),
		strings.HasPrefix(l, "index "), strings.HasPrefix(l, "*** "):
		return "file"
	case strings.HasPrefix(l, "@@"):
		return "hunk"
	case strings.HasPrefix(l, "+"):
		return "add"
	case strings.HasPrefix(l, "-"):
		return "del"
	}
	return "ctx"
}
