package locate

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// Options tune the code windows.
type Options struct {
	// Radius is the number of lines shown on each side of the focus line (default 40).
	Radius int
	// Max is the number of windows (default 8; the patch request's token
	// budget drops the lowest-ranked ones when they do not fit).
	Max int
	// MaxFileBytes skips larger files (default 1 MiB).
	MaxFileBytes int64
}

func (o Options) withDefaults() Options {
	if o.Radius <= 0 {
		o.Radius = 40
	}
	if o.Max <= 0 {
		o.Max = 8
	}
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = 1 << 20
	}
	return o
}

// Windows cuts numbered windows (±Radius lines) around the best locations,
// reading files from the snapshot. A location already inside a chosen
// window of the same file is not given a second one; missing, oversized
// and binary files are skipped.
func Windows(locs []Location, fsys fs.FS, opt Options) []*glv1.CodeWindow {
	opt = opt.withDefaults()
	var out []*glv1.CodeWindow
	cache := map[string][]string{}
	for _, l := range locs {
		if len(out) >= opt.Max {
			break
		}
		if covered(out, l) {
			continue
		}
		lines, ok := cache[l.File]
		if !ok {
			lines = readLines(fsys, l.File, opt.MaxFileBytes)
			cache[l.File] = lines
		}
		if lines == nil || l.Line > len(lines) {
			continue
		}
		out = append(out, window(l, lines, opt.Radius, len(out)+1))
	}
	return out
}

// FromFailures ranks the failures, adds the functions the failing tests
// call (WithCallees) and cuts the default windows.
func FromFailures(failures []parse.Failure, fsys fs.FS) []*glv1.CodeWindow {
	return Windows(WithCallees(Rank(failures), fsys), fsys, Options{})
}

func covered(ws []*glv1.CodeWindow, l Location) bool {
	for _, w := range ws {
		if w.GetFile() == l.File && int32(l.Line) >= w.GetStartLine() && int32(l.Line) <= w.GetEndLine() {
			return true
		}
	}
	return false
}

// window numbers lines start..end, marking the focus line with '>'.
func window(l Location, lines []string, radius, rank int) *glv1.CodeWindow {
	start := max(1, l.Line-radius)
	end := min(len(lines), l.Line+radius)
	if l.Definition { // the body below the signature, a little above
		start, end = max(1, l.Line-3), min(len(lines), l.Line+2*radius-3)
	}
	if l.Whole {
		start, end = 1, len(lines)
	}
	width := len(fmt.Sprint(end))
	var b strings.Builder
	for n := start; n <= end; n++ {
		mark := " "
		if n == l.Line {
			mark = ">"
		}
		fmt.Fprintf(&b, "%s%*d | %s\n", mark, width, n, lines[n-1])
	}
	return &glv1.CodeWindow{File: l.File, StartLine: int32(start), EndLine: int32(end), FocusLine: int32(l.Line), Text: b.String(), Rank: int32(rank)}
}

// readLines reads a text file of the snapshot; nil when unusable.
func readLines(fsys fs.FS, name string, maxBytes int64) []string {
	if fsys == nil {
		return nil
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxBytes+1))
	if err != nil || int64(len(data)) > maxBytes || bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return nil
	}
	s := strings.ToValidUTF8(string(data), "�")
	s = strings.TrimSuffix(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	return strings.Split(s, "\n")
}
