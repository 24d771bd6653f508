package patch

import (
	"fmt"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// envelope directives, matched case-insensitively. The short spellings
// ("*** Update: path") are the ones of the original patch protocol.
var envelopeHeaders = []struct {
	prefix string
	op     FileOp
}{
	{"*** update file:", OpModify}, {"*** update:", OpModify},
	{"*** add file:", OpAdd}, {"*** add:", OpAdd},
	{"*** delete file:", OpDelete}, {"*** delete:", OpDelete},
}

// envelopeParser reads the "*** Begin Patch" envelope of OpenAI's
// apply_patch tool: "*** Update File:", "*** Add File:", "*** Delete
// File:" and "*** Move to:" directives; update hunks start with "@@",
// optionally followed by a line to find first, and hold ' ', '-' and '+'
// lines; "*** End of File" anchors a hunk at the end of the file.
type envelopeParser struct {
	lines []string
	i     int
	p     *Patch
}

// parseEnvelope parses text that starts with the "*** Begin Patch" line.
func parseEnvelope(text string) (*Patch, error) {
	ep := &envelopeParser{lines: strings.Split(strings.TrimRight(text, "\n"), "\n"), i: 1,
		p: &Patch{Format: glv1.PatchFormat_PATCH_FORMAT_ENVELOPE}}
	for i := range ep.lines {
		ep.lines[i] = strings.TrimSuffix(ep.lines[i], "\r")
	}
	if err := ep.run(); err != nil {
		return nil, err
	}
	if len(ep.p.Files) == 0 {
		return nil, ErrNoPatch
	}
	return ep.p, nil
}

// run parses file sections until "*** End Patch" or the end of the text.
func (ep *envelopeParser) run() error {
	for ep.i < len(ep.lines) {
		line := ep.lines[ep.i]
		t := strings.TrimSpace(line)
		switch {
		case strings.EqualFold(t, "*** End Patch"):
			return nil
		case t == "":
			ep.i++
		default:
			op, name, ok := envelopeHeader(line)
			if !ok {
				return ep.errorf("expected a \"*** Update File:\", \"*** Add File:\" or \"*** Delete File:\" line, got %q", line)
			}
			ep.i++
			if err := ep.file(op, name); err != nil {
				return err
			}
		}
	}
	return nil
}

// envelopeHeader recognizes a file directive.
func envelopeHeader(line string) (FileOp, string, bool) {
	lower := strings.ToLower(line)
	for _, h := range envelopeHeaders {
		if strings.HasPrefix(lower, h.prefix) {
			return h.op, normalizePath(strings.TrimSpace(line[len(h.prefix):])), true
		}
	}
	return 0, "", false
}

// isDirective reports whether line starts a new envelope section.
func isDirective(line string) bool {
	return strings.HasPrefix(line, "*** ") && !strings.EqualFold(strings.TrimSpace(line), "*** End of File")
}

// file parses the body of one file directive.
func (ep *envelopeParser) file(op FileOp, name string) error {
	if name == "" {
		return ep.errorf("file directive without a path")
	}
	f := &File{Op: op}
	ep.p.Files = append(ep.p.Files, f)
	switch op {
	case OpAdd:
		f.NewPath = name
		return ep.addBody(f)
	case OpDelete:
		f.OldPath = name
		return ep.skipBlank()
	}
	f.OldPath, f.NewPath = name, name
	if ep.i < len(ep.lines) {
		if rest, ok := cutFold(ep.lines[ep.i], "*** move to:"); ok {
			f.Op, f.NewPath = OpRename, normalizePath(strings.TrimSpace(rest))
			ep.i++
		}
	}
	return ep.updateBody(f)
}

// addBody reads the '+' lines of an added file.
func (ep *envelopeParser) addBody(f *File) error {
	h := &Hunk{Positioned: true, NewStart: 1}
	for ; ep.i < len(ep.lines) && !isDirective(ep.lines[ep.i]); ep.i++ {
		line := ep.lines[ep.i]
		if !strings.HasPrefix(line, "+") {
			if strings.TrimSpace(line) == "" && ep.blankUntilDirective() {
				break
			}
			return ep.errorf("every line of an added file must start with '+', got %q", line)
		}
		h.Lines = append(h.Lines, Line{Op: LineAdd, Text: line[1:]})
	}
	if len(h.Lines) > 0 {
		f.Hunks = append(f.Hunks, h)
	}
	return nil
}

// updateBody reads the hunks of an updated file.
func (ep *envelopeParser) updateBody(f *File) error {
	var h *Hunk
	flush := func() {
		if h != nil && hasChanges(h) {
			f.Hunks = append(f.Hunks, h)
		}
		h = nil
	}
	for ; ep.i < len(ep.lines) && !isDirective(ep.lines[ep.i]); ep.i++ {
		line := ep.lines[ep.i]
		switch {
		case strings.HasPrefix(line, "@@"):
			if h != nil && len(h.Lines) > 0 {
				flush()
			}
			if h == nil {
				h = &Hunk{}
			}
			if anchor := strings.TrimSpace(strings.TrimPrefix(line, "@@")); anchor != "" {
				h.Anchors = append(h.Anchors, anchor)
			}
		case strings.EqualFold(strings.TrimSpace(line), "*** End of File"):
			if h != nil {
				h.AtEOF = true
			}
			flush()
		case line == "" && ep.blankUntilDirective():
			flush()
			return nil
		default:
			if h == nil {
				h = &Hunk{}
			}
			l, ok := envelopeLine(line)
			if !ok {
				return ep.errorf("hunk lines must start with ' ', '-' or '+', got %q", line)
			}
			h.Lines = append(h.Lines, l)
		}
	}
	flush()
	if len(f.Hunks) == 0 && f.Op == OpModify {
		return ep.errorf("%s: update without any change", f.OldPath)
	}
	return nil
}

// envelopeLine reads one hunk line; an empty line is an empty context
// line (editors strip the lone space).
func envelopeLine(line string) (Line, bool) {
	if line == "" {
		return Line{Op: LineContext}, true
	}
	switch op := LineOp(line[0]); op {
	case LineContext, LineDelete, LineAdd:
		return Line{Op: op, Text: line[1:]}, true
	}
	return Line{}, false
}

// hasChanges reports whether a hunk adds or removes anything.
func hasChanges(h *Hunk) bool {
	a, r := h.counts()
	return a+r > 0
}

// blankUntilDirective reports whether only blank lines remain before the
// next directive (or the end), so trailing blank lines end a section.
func (ep *envelopeParser) blankUntilDirective() bool {
	for j := ep.i; j < len(ep.lines); j++ {
		if isDirective(ep.lines[j]) {
			return true
		}
		if strings.TrimSpace(ep.lines[j]) != "" {
			return false
		}
	}
	return true
}

// skipBlank skips the blank lines after a directive without a body.
func (ep *envelopeParser) skipBlank() error {
	for ; ep.i < len(ep.lines) && !isDirective(ep.lines[ep.i]); ep.i++ {
		if strings.TrimSpace(ep.lines[ep.i]) != "" {
			return ep.errorf("a deleted file has no body, got %q", ep.lines[ep.i])
		}
	}
	return nil
}

// errorf reports a malformed envelope at the current line.
func (ep *envelopeParser) errorf(format string, args ...any) error {
	return malformed("envelope line %d: %s", ep.i+1, fmt.Sprintf(format, args...))
}

// cutFold is strings.CutPrefix, ignoring case.
func cutFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}
