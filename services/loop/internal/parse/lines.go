package parse

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// line is one line of a step log as the format parsers see it. text is only
// valid during the call it is passed to.
type line struct {
	// text has ANSI escapes removed and no trailing newline.
	text []byte
	// off is the byte offset of the line's start in the log.
	off int64
	// cut is true when the line was longer than the limit and was truncated.
	cut bool
}

// lineReader yields the lines of a log with bounded memory: a line longer
// than max is truncated and the rest of it skipped.
type lineReader struct {
	r     *bufio.Reader
	max   int
	buf   []byte
	clean []byte
	off   int64
}

func newLineReader(r io.Reader, max int) *lineReader {
	size := 64 << 10
	if max < size {
		size = max
	}
	if size < 16 {
		size = 16
	}
	return &lineReader{r: bufio.NewReaderSize(r, size), max: max}
}

// next returns the next line or io.EOF.
func (lr *lineReader) next() (line, error) {
	start := lr.off
	chunk, err := lr.r.ReadSlice('\n')
	lr.off += int64(len(chunk))
	if err == nil || (errors.Is(err, io.EOF) && len(chunk) > 0) {
		return lr.make(chunk, start, false), nil
	}
	if !errors.Is(err, bufio.ErrBufferFull) {
		return line{}, err
	}
	lr.buf = append(lr.buf[:0], chunk...)
	cut := false
	for {
		chunk, err = lr.r.ReadSlice('\n')
		lr.off += int64(len(chunk))
		if room := lr.max - len(lr.buf); room > 0 {
			if len(chunk) > room {
				lr.buf = append(lr.buf, chunk[:room]...)
				cut = true
			} else {
				lr.buf = append(lr.buf, chunk...)
			}
		} else if len(chunk) > 0 {
			cut = true
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return line{}, err
		}
		return lr.make(lr.buf, start, cut), nil
	}
}

// make trims the line ending and strips ANSI escapes.
func (lr *lineReader) make(b []byte, off int64, cut bool) line {
	// bytes.TrimRight with a two-byte cutset builds a set per call.
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	if bytes.IndexByte(b, 0x1b) >= 0 {
		lr.clean = stripANSI(lr.clean[:0], b)
		b = lr.clean
	}
	return line{text: b, off: off, cut: cut}
}

// stripANSI appends b to dst without CSI/OSC escape sequences.
func stripANSI(dst, b []byte) []byte {
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != 0x1b {
			dst = append(dst, c)
			continue
		}
		if i+1 >= len(b) {
			break
		}
		switch b[i+1] {
		case '[': // CSI: ESC [ params final(0x40-0x7e)
			j := i + 2
			for j < len(b) && (b[j] < 0x40 || b[j] > 0x7e) {
				j++
			}
			i = j
		case ']': // OSC: ends with BEL or ESC \
			j := i + 2
			for j < len(b) && b[j] != 0x07 && !(b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\') {
				j++
			}
			if j < len(b) && b[j] == 0x1b {
				j++
			}
			i = j
		default:
			i++
		}
	}
	return dst
}
