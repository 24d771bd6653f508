package patch

import (
	"fmt"
	"strings"
)

// text is a file's content as lines without their newlines; eol tells
// whether the last line ends with one (an empty file has eol true).
type text struct {
	lines []string
	eol   bool
}

// splitText splits content into lines.
func splitText(b []byte) text {
	if len(b) == 0 {
		return text{eol: true}
	}
	s := string(b)
	eol := strings.HasSuffix(s, "\n")
	return text{lines: strings.Split(strings.TrimSuffix(s, "\n"), "\n"), eol: eol}
}

// bytes joins the lines back.
func (t text) bytes() []byte {
	if len(t.lines) == 0 {
		return nil
	}
	s := strings.Join(t.lines, "\n")
	if t.eol {
		s += "\n"
	}
	return []byte(s)
}

// applied is where each hunk of a file was applied, in old-file line
// indexes.
type applied struct {
	result text
	at     []int
}

// applyHunks applies a file's hunks, in order, to its old content. Every
// hunk's old lines (context and deletions) must match the file exactly;
// a hunk with line numbers is tried at its stated line first (shifted by
// the offset the previous hunk was found at), then ever further away; a
// hunk without is searched for from the end of the previous hunk on.
func applyHunks(name string, old text, hunks []*Hunk) (applied, error) {
	var (
		out    []string
		cursor int
		drift  int
		res    = applied{at: make([]int, len(hunks))}
		eol    = old.eol
	)
	for i, h := range hunks {
		at, err := locate(h, old.lines, cursor, drift)
		if err != nil {
			return applied{}, &ApplyError{Path: name, Hunk: i + 1, Reason: err.Error()}
		}
		if h.Positioned {
			drift = at - expectedAt(h)
		}
		oldLines := h.oldLines()
		end := at + len(oldLines)
		if h.OldNoEOL && end != len(old.lines) {
			return applied{}, &ApplyError{Path: name, Hunk: i + 1,
				Reason: "the hunk marks its last line as the end of the file, but the file goes on"}
		}
		if end == len(old.lines) {
			switch {
			case h.NewNoEOL:
				eol = false
			case h.OldNoEOL:
				eol = true
			}
		}
		out = append(out, old.lines[cursor:at]...)
		out = append(out, h.newLines()...)
		cursor = end
		res.at[i] = at
	}
	out = append(out, old.lines[cursor:]...)
	res.result = text{lines: out, eol: eol || len(out) == 0}
	return res, nil
}

// expectedAt is the 0-based index a positioned hunk's header points at.
func expectedAt(h *Hunk) int {
	if len(h.oldLines()) == 0 {
		return h.OldStart // "-5,0" inserts after line 5
	}
	return max(h.OldStart-1, 0)
}

// locate finds where a hunk's old lines are in lines, at or after lo.
func locate(h *Hunk, lines []string, lo, drift int) (int, error) {
	oldLines := h.oldLines()
	for _, anchor := range h.Anchors {
		i := findAnchor(lines, lo, anchor)
		if i < 0 {
			return 0, fmt.Errorf("the line %q after its @@ is not in the file (after line %d)", anchor, lo)
		}
		lo = i
	}
	last := len(lines) - len(oldLines)
	switch {
	case h.AtEOF:
		if last < lo || !matchAt(lines, last, oldLines) {
			return 0, fmt.Errorf("it is marked as ending the file, but the file does not end with its lines: %s", mismatch(lines, lo, oldLines))
		}
		return last, nil
	case len(oldLines) == 0 && h.Positioned:
		return min(max(expectedAt(h)+drift, lo), len(lines)), nil
	case len(oldLines) == 0 && len(lines) == 0:
		return 0, nil
	case len(oldLines) == 0:
		return 0, fmt.Errorf("it has no context lines and no line numbers; include a few unchanged lines around the change so it can be located")
	}
	if h.Positioned {
		if at, ok := nearest(lines, lo, last, expectedAt(h)+drift, oldLines); ok {
			return at, nil
		}
	} else {
		for at := lo; at <= last; at++ {
			if matchAt(lines, at, oldLines) {
				return at, nil
			}
		}
	}
	return 0, fmt.Errorf("its context does not match the file: %s", mismatch(lines, lo, oldLines))
}

// nearest searches outwards from want for a match in [lo, last].
func nearest(lines []string, lo, last, want int, oldLines []string) (int, bool) {
	want = min(max(want, lo), max(last, lo))
	for d := 0; want-d >= lo || want+d <= last; d++ {
		if at := want - d; at >= lo && at <= last && matchAt(lines, at, oldLines) {
			return at, true
		}
		if at := want + d; d > 0 && at >= lo && at <= last && matchAt(lines, at, oldLines) {
			return at, true
		}
	}
	return 0, false
}

// matchAt reports whether want appears in lines at index at, exactly.
func matchAt(lines []string, at int, want []string) bool {
	if at < 0 || at+len(want) > len(lines) {
		return false
	}
	for i, w := range want {
		if lines[at+i] != w {
			return false
		}
	}
	return true
}

// findAnchor finds an envelope "@@" line at or after lo: the same line,
// or failing that the same line but for surrounding white space (the
// anchor only locates; the hunk's own lines must still match exactly).
func findAnchor(lines []string, lo int, anchor string) int {
	for i := lo; i < len(lines); i++ {
		if lines[i] == anchor {
			return i
		}
	}
	t := strings.TrimSpace(anchor)
	for i := lo; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == t {
			return i
		}
	}
	return -1
}

// mismatch describes, for the model, the closest the hunk came to
// matching: the first differing line at the position matching most lines.
func mismatch(lines []string, lo int, want []string) string {
	best, bestAt := -1, 0
	for at := lo; at+len(want) <= len(lines); at++ {
		n := 0
		for i, w := range want {
			if lines[at+i] == w {
				n++
			}
		}
		if n > best {
			best, bestAt = n, at
		}
	}
	if best <= 0 {
		if len(want) == 0 {
			return "the file is too short"
		}
		return fmt.Sprintf("its first line %q is nowhere in the file", want[0])
	}
	for i, w := range want {
		got := lines[bestAt+i]
		if got == w {
			continue
		}
		hint := ""
		if strings.TrimSpace(got) == strings.TrimSpace(w) {
			hint = " (they differ only in white space, which must match exactly)"
		}
		return fmt.Sprintf("closest at line %d, where line %d is %q but the hunk expects %q%s",
			bestAt+1, bestAt+i+1, got, w, hint)
	}
	return "the file is too short"
}
