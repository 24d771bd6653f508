package patch

import "strings"

// Parse reads a patch out of a provider's reply: a unified diff, the same
// inside <patch>…</patch> or a Markdown fence with prose around it, or a
// "*** Begin Patch" envelope. A reply with no patch in it is ErrNoPatch;
// one whose patch cannot be read is ErrMalformed. Parse checks nothing:
// Check and Apply enforce the guardrails.
func Parse(reply string) (*Patch, error) {
	body := extract(reply)
	var (
		p   *Patch
		err error
	)
	if start := envelopeStart(body); start >= 0 {
		p, err = parseEnvelope(body[start:])
	} else {
		p, err = parseUnified(body)
	}
	if err != nil {
		return nil, err
	}
	p.Text = body
	p.Bytes = len(body)
	p.NUL = strings.IndexByte(body, 0) >= 0
	return p, nil
}

// extract returns the patch text proper: the content of the first
// <patch>…</patch> block, then of the first fenced block that looks like a
// patch, trimmed of surrounding blank lines.
func extract(reply string) string {
	body := reply
	lower := strings.ToLower(body)
	if i := strings.Index(lower, "<patch>"); i >= 0 {
		body = body[i+len("<patch>"):]
		if j := strings.Index(strings.ToLower(body), "</patch>"); j >= 0 {
			body = body[:j]
		}
	}
	if fenced, ok := fencedPatch(body); ok {
		body = fenced
	}
	return trimBlankLines(body)
}

// trimBlankLines drops blank lines before and after the patch, keeping
// the last line's own ending: in a CRLF file's diff, that line's "\r" is
// content, and without it the line would not match the file.
func trimBlankLines(body string) string {
	body = strings.TrimLeft(body, "\r\n")
	for {
		switch {
		case strings.HasSuffix(body, "\n\n"):
			body = body[:len(body)-1]
		case strings.HasSuffix(body, "\n\r\n"):
			body = body[:len(body)-2]
		default:
			if !strings.HasSuffix(body, "\n") {
				body += "\n"
			}
			return body
		}
	}
}

// fencedPatch returns the content of the first ``` (or ~~~) fenced block
// that holds a patch marker.
func fencedPatch(text string) (string, bool) {
	lines := strings.SplitAfter(text, "\n")
	for i := 0; i < len(lines); i++ {
		fence := fenceMarker(lines[i])
		if fence == "" {
			continue
		}
		var b strings.Builder
		j := i + 1
		for ; j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), fence); j++ {
			b.WriteString(lines[j])
		}
		if looksLikePatch(b.String()) {
			return b.String(), true
		}
		i = j
	}
	return "", false
}

// fenceMarker returns "```" or "~~~" when line opens a fenced block.
func fenceMarker(line string) string {
	t := strings.TrimSpace(line)
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(t, f) {
			return f
		}
	}
	return ""
}

// looksLikePatch reports whether text holds a patch marker.
func looksLikePatch(text string) bool {
	if envelopeStart(text) >= 0 {
		return true
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "diff --git ") || strings.HasPrefix(line, "--- ") ||
			strings.HasPrefix(line, "+++ ") || strings.HasPrefix(line, "@@") {
			return true
		}
	}
	return false
}

// envelopeStart returns the offset of the "*** Begin Patch" line, or -1.
func envelopeStart(text string) int {
	off := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		if strings.EqualFold(strings.TrimSpace(line), "*** Begin Patch") {
			return off
		}
		off += len(line)
	}
	return -1
}
