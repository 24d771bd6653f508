package parse

import (
	"strconv"
	"unicode/utf8"
)

// Cheap tests the format parsers run on every line. They take the literal
// as a string so that, once inlined, comparing against a constant compiles
// to a few loads instead of a call to memequal (bytes.HasPrefix with a
// []byte literal costs about three times as much).

// hasPrefix is bytes.HasPrefix for a string literal.
func hasPrefix(t []byte, prefix string) bool {
	return len(t) >= len(prefix) && string(t[:len(prefix)]) == prefix
}

// hasSuffix is bytes.HasSuffix for a string literal.
func hasSuffix(t []byte, suffix string) bool {
	return len(t) >= len(suffix) && string(t[len(t)-len(suffix):]) == suffix
}

// isReSpace is Go regexp's \s: ASCII whitespace without \v.
func isReSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digitsEnd returns the index after the run of ASCII digits starting at i.
func digitsEnd(t []byte, i int) int {
	for i < len(t) && isDigit(t[i]) {
		i++
	}
	return i
}

// atoi is strconv.Atoi ignoring the error, as the regex-based code did
// (an out-of-range number clamps). string(b) does not escape here, so
// short numbers cost no allocation.
func atoi(b []byte) int {
	n, _ := strconv.Atoi(string(b))
	return n
}

// leadingSpace returns the length of the run of regexp \s ([\t\n\f\r ])
// that starts t.
func leadingSpace(t []byte) int {
	i := 0
	for i < len(t) && isReSpace(t[i]) {
		i++
	}
	return i
}

// mayTrimTo reports whether bytes.TrimSpace(t) can start with c (ASCII, not
// a space): only whitespace, ASCII or Unicode, is trimmed from the front.
func mayTrimTo(t []byte, c byte) bool {
	return len(t) > 0 && (t[0] == c || t[0] >= utf8.RuneSelf || asciiSpace(t[0]))
}

// mayTrimFrom reports whether bytes.TrimSpace(t) can end with c (ASCII, not
// a space): the last byte of Unicode whitespace is not ASCII.
func mayTrimFrom(t []byte, c byte) bool {
	if len(t) == 0 {
		return false
	}
	last := t[len(t)-1]
	return last == c || last >= utf8.RuneSelf || asciiSpace(last)
}

// asciiSpace is unicode.IsSpace for ASCII bytes (what bytes.TrimSpace trims).
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}
