// Package termtext makes text that came from a sandbox or a repository
// (log lines, tails, failure messages, test and step names, reasons) safe
// to show on a terminal or in a pipe: code under verification must not be
// able to retitle the window, clear the screen, move the cursor to paint
// over the verdict, hide text with bidi overrides, or flood one line.
//
// Clean removes escape sequences (CSI, OSC, DCS/SOS/PM/APC and two-byte
// ESC sequences, colors included) and shows every other C0/C1 control and
// bidi control as a visible <U+XXXX> marker; newlines and tabs stay, and a
// carriage return counts as a line break (so "10%\r20%" shows both).
// Clip shortens a line to a display width, counting wide characters (CJK,
// most emoji) as two cells, by grapheme clusters via github.com/rivo/uniseg.
package termtext

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

const esc = 0x1b

// Clean returns s without escape sequences and with every other control
// character made visible; '\n' and '\t' are kept, "\r\n" and a lone '\r'
// become '\n', and invalid UTF-8 becomes U+FFFD.
func Clean(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == esc:
			i += escapeLen(s[i:])
			continue
		case r == 0x9b || r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f:
			// C1 introducers (CSI, OSC, DCS, SOS, PM, APC) in their
			// one-character form start a sequence just like ESC [ etc.
			i += size + sequenceBody(s[i+size:], r)
			continue
		case r == '\r':
			if !strings.HasPrefix(s[i+1:], "\n") {
				b.WriteByte('\n')
			}
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(utf8.RuneError)
		case visible(r):
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "<U+%04X>", r)
		}
		i += size
	}
	return b.String()
}

// isPlain reports whether s is printable ASCII plus '\n' and '\t', the
// common case Clean returns unchanged.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x7f || (c < ' ' && c != '\n' && c != '\t') {
			return false
		}
	}
	return true
}

// visible reports whether r may be written as is.
func visible(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return true
	case r < ' ' || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return false
	case isBidiControl(r):
		return false
	}
	return true
}

// isBidiControl reports the characters that reorder text when displayed
// ("Trojan Source"): embeddings, overrides, isolates and marks.
func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) ||
		r == 0x200e || r == 0x200f || r == 0x061c
}

// escapeLen is the length of the escape sequence at the start of s (which
// begins with ESC); an unterminated sequence runs to the end of s.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		return 2 + sequenceBody(s[2:], 0x9b)
	case ']':
		return 2 + sequenceBody(s[2:], 0x9d)
	case 'P', 'X', '^', '_':
		return 2 + sequenceBody(s[2:], 0x90)
	}
	// Two-byte sequences (ESC c, ESC 7, ...), with any intermediate bytes
	// (ESC ( B).
	n := 1
	for n < len(s) && s[n] >= 0x20 && s[n] <= 0x2f {
		n++
	}
	if n < len(s) {
		n++
	}
	return n
}

// sequenceBody is the length of the body after a CSI (kind 0x9b), or of
// the string after an OSC/DCS/SOS/PM/APC introducer, terminator included.
func sequenceBody(s string, kind rune) int {
	if kind == 0x9b {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c >= 0x40 && c <= 0x7e {
				return i + 1 // final byte
			} else if c < 0x20 || c > 0x7e {
				return i // malformed: stop before the stray byte
			}
		}
		return len(s)
	}
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x07: // BEL ends an OSC in xterm's dialect
			return i + 1
		case s[i] == esc && i+1 < len(s) && s[i+1] == '\\': // ST
			return i + 2
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c: // ST as U+009C
			return i + 2
		}
	}
	return len(s)
}

// Width is the display width of s in terminal cells.
func Width(s string) int { return uniseg.StringWidth(s) }

// Clip shortens s to at most width cells, marking a cut with "…" (one
// cell), without splitting a grapheme cluster. width <= 0 gives "".
func Clip(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if uniseg.StringWidth(s) <= width {
		return s
	}
	var b strings.Builder
	used := 0
	state := -1
	rest := s
	for len(rest) > 0 {
		var cluster string
		var w int
		cluster, rest, w, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if used+w > width-1 {
			break
		}
		b.WriteString(cluster)
		used += w
	}
	return b.String() + "…"
}

// Line is Clean then the first line of the result, trimmed and clipped
// to width cells (width <= 0: not clipped).
func Line(s string, width int) string {
	s = strings.TrimSpace(Clean(s))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if width > 0 {
		s = Clip(s, width)
	}
	return s
}
