package sandbox

import (
	"strings"
	"unicode/utf8"
)

// tailRing keeps the last cap bytes written, in bounded memory whatever the
// volume of output.
type tailRing struct {
	buf  []byte
	next int  // write position once full
	full bool // buf has wrapped at least once
	cap  int
}

func newTailRing(capacity int) *tailRing {
	return &tailRing{buf: make([]byte, 0, capacity), cap: capacity}
}

// Write keeps the last cap bytes of p. It never fails.
func (t *tailRing) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) >= t.cap {
		t.buf = append(t.buf[:0], p[len(p)-t.cap:]...)
		t.next, t.full = 0, true
		return n, nil
	}
	if !t.full {
		room := t.cap - len(t.buf)
		if len(p) <= room {
			t.buf = append(t.buf, p...)
			if len(t.buf) == t.cap {
				t.full = true
			}
			return n, nil
		}
		t.buf = append(t.buf, p[:room]...)
		p = p[room:]
		t.full = true
	}
	for len(p) > 0 {
		c := copy(t.buf[t.next:], p)
		p = p[c:]
		t.next = (t.next + c) % t.cap
	}
	return n, nil
}

// bytes returns the kept bytes in order.
func (t *tailRing) bytes() []byte {
	if !t.full || t.next == 0 {
		return append([]byte(nil), t.buf...)
	}
	out := make([]byte, 0, t.cap)
	out = append(out, t.buf[t.next:]...)
	return append(out, t.buf[:t.next]...)
}

// lines returns the last maxLines lines as valid UTF-8. When the ring has
// wrapped, the first (partial) line and any split character are dropped.
func (t *tailRing) lines(maxLines int) string {
	b := t.bytes()
	if t.full {
		if i := strings.IndexByte(string(b), '\n'); i >= 0 && i < len(b)-1 {
			b = b[i+1:]
		} else {
			for len(b) > 0 && !utf8.RuneStart(b[0]) {
				b = b[1:]
			}
		}
	}
	return lastLines(strings.ToValidUTF8(string(b), "\uFFFD"), maxLines)
}

// lastLines returns the last n lines of s (a final newline does not start
// a new line).
func lastLines(s string, n int) string {
	end := len(s)
	if end > 0 && s[end-1] == '\n' {
		end--
	}
	count := 0
	for i := end - 1; i >= 0; i-- {
		if s[i] == '\n' {
			count++
			if count == n {
				return s[i+1:]
			}
		}
	}
	return s
}
