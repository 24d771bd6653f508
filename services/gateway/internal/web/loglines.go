package web

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/display"
)

// Bounds of the log page. Stored logs are already capped per step; these
// keep one page within what a browser shows well. The end of a log is
// where failures are, so the page keeps the last lines, numbered as in
// the whole log; the raw log has everything.
const (
	maxLogLines     = 50_000
	maxLogPageBytes = 8 << 20
	// maxLogLineBytes cuts one very long line for display.
	maxLogLineBytes = 16 << 10
)

// logLines keeps the last lines of a log within the page's bounds.
type logLines struct {
	ring    []numberedLine
	start   int // index of the oldest kept line in ring
	bytes   int
	next    int // number of the next line
	skipped int
	pending strings.Builder
	// goJSON: some line was a test2json event, shown as its text.
	goJSON bool
}

// readLogLines reads a log into numbered lines; goJSON renders test2json
// events as the text go test prints. What was read before an error is
// kept.
func readLogLines(r io.Reader, goJSON bool) (*logLines, error) {
	l := &logLines{next: 1}
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		raw, more, err := readRawLine(br)
		if err != nil {
			l.flush()
			return l, err
		}
		if !more {
			l.flush()
			return l, nil
		}
		if goJSON {
			text := display.GoTestLine(raw)
			l.goJSON = l.goJSON || text != raw
			raw = text
		}
		l.write(raw)
	}
}

// readRawLine reads one line with its newline, cut at maxLogLineBytes;
// more is false at the end of input.
func readRawLine(br *bufio.Reader) (line string, more bool, err error) {
	var b strings.Builder
	cut := false
	for {
		chunk, err := br.ReadSlice('\n')
		if room := maxLogLineBytes - b.Len(); len(chunk) > room {
			b.Write(chunk[:max(room, 0)])
			cut = true
		} else {
			b.Write(chunk)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return finishLine(b.String(), cut), b.Len() > 0 || cut, nil
		case err != nil:
			return "", false, fmt.Errorf("read log: %w", err)
		}
		return finishLine(b.String(), cut), true, nil
	}
}

// finishLine marks a cut line and gives it its newline back.
func finishLine(s string, cut bool) string {
	if !cut {
		return s
	}
	return strings.TrimSuffix(s, "\n") + " […line cut for display: see the raw log]\n"
}

// write adds text, which may hold several lines or end mid-line.
func (l *logLines) write(text string) {
	for {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			l.pending.WriteString(text)
			return
		}
		l.pending.WriteString(text[:i])
		l.push(l.pending.String())
		l.pending.Reset()
		text = text[i+1:]
	}
}

// flush ends an unterminated last line.
func (l *logLines) flush() {
	if l.pending.Len() > 0 {
		l.push(l.pending.String())
		l.pending.Reset()
	}
}

// push keeps one line, dropping the oldest beyond the bounds.
func (l *logLines) push(text string) {
	text = strings.ToValidUTF8(strings.TrimSuffix(text, "\r"), "\uFFFD")
	l.ring = append(l.ring, numberedLine{N: l.next, Text: text})
	l.next++
	l.bytes += len(text)
	for len(l.ring)-l.start > maxLogLines || l.bytes > maxLogPageBytes {
		l.bytes -= len(l.ring[l.start].Text)
		l.ring[l.start] = numberedLine{}
		l.start++
		l.skipped++
	}
	if l.start > len(l.ring)/2 && l.start > 1024 {
		l.ring = append([]numberedLine(nil), l.ring[l.start:]...)
		l.start = 0
	}
}

// lines are the kept lines, oldest first.
func (l *logLines) lines() []numberedLine { return l.ring[l.start:] }
