package sandbox

import (
	"strings"
	"unicode/utf8"
)

// incompleteSuffix returns how many bytes at the end of b form the start of
// a UTF-8 sequence that more bytes could still complete (0 to 3). Cutting
// there keeps a multi-byte character whole across chunks.
func incompleteSuffix(b []byte) int {
	for n := 1; n <= utf8.UTFMax-1 && n <= len(b); n++ {
		c := b[len(b)-n]
		if c < utf8.RuneSelf {
			return 0 // ASCII: nothing pending
		}
		if utf8.RuneStart(c) {
			if need := seqLen(c); need > n {
				return n
			}
			return 0
		}
	}
	return 0
}

// seqLen is the length of the UTF-8 sequence a leading byte announces (1 for
// bytes that cannot start one, so they are never held back).
func seqLen(c byte) int {
	switch {
	case c&0xE0 == 0xC0:
		return 2
	case c&0xF0 == 0xE0:
		return 3
	case c&0xF8 == 0xF0:
		return 4
	}
	return 1
}

// validUTF8 replaces every invalid sequence with U+FFFD: protobuf strings
// must be valid UTF-8, whatever the sandbox printed.
func validUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}
