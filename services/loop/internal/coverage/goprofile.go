package coverage

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// GoTool names Go's coverage in the result.
const GoTool = "go test -coverprofile"

// ParseGoProfile reads a Go coverage profile (`mode: set|count|atomic`,
// then `IMPORTPATH/file.go:L.C,L.C NUMSTMT COUNT` per block), counting
// statements as `go test -cover` does. Files are named by import path;
// module is the module path of the step's go.mod and workdir the step's
// working directory, so a file of the module becomes a workspace path.
// Files of other import paths (GOPATH mode, a replaced module) keep their
// import path.
func ParseGoProfile(r io.Reader, module, workdir string) (*Set, error) {
	s := NewSet()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	first := true
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if first {
			first = false
			if !strings.HasPrefix(line, "mode: ") {
				return nil, fmt.Errorf("go coverage profile: first line %q is not a mode line", line)
			}
			continue
		}
		if strings.HasPrefix(line, "mode: ") {
			continue // profiles of several test binaries concatenated
		}
		colon := strings.LastIndex(line, ":")
		fields := strings.Fields(line[colon+1:])
		if colon <= 0 || len(fields) != 3 {
			return nil, fmt.Errorf("go coverage profile: malformed line %q", line)
		}
		n, err1 := strconv.ParseInt(fields[1], 10, 64)
		count, err2 := strconv.ParseInt(fields[2], 10, 64)
		if err1 != nil || err2 != nil || n < 0 {
			return nil, fmt.Errorf("go coverage profile: malformed line %q", line)
		}
		if n == 0 {
			continue
		}
		file := line[:colon]
		if rest, ok := strings.CutPrefix(file, module+"/"); ok && module != "" {
			if j, ok := Join(workdir, rest); ok {
				file = j
			}
		}
		s.add(file, fields[0], Unit{N: n, Hit: count > 0})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("go coverage profile: %w", err)
	}
	if first {
		return nil, fmt.Errorf("go coverage profile: empty")
	}
	s.Tools = []string{GoTool}
	return s, nil
}

// ModulePath is the module path a go.mod declares, "" when none.
func ModulePath(gomod []byte) string {
	for _, ln := range strings.Split(string(gomod), "\n") {
		ln = strings.TrimSpace(ln)
		if rest, ok := strings.CutPrefix(ln, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			m := strings.TrimSpace(rest)
			if i := strings.Index(m, "//"); i >= 0 {
				m = strings.TrimSpace(m[:i])
			}
			return strings.Trim(m, `"`)
		}
	}
	return ""
}

// gopathLink finds the import path a GOPATH-mode step links the workspace
// at (discovery's `ln -sfn "$PWD" /tmp/gopath/src/IMPORT`).
var gopathLink = regexp.MustCompile(`ln -sfn "\$PWD" /tmp/gopath/src/(\S+)`)

// GopathImport is the import path a GOPATH-mode step builds the workspace
// as, "" for a module-mode step: its coverage profile names files by it.
func GopathImport(command string) string {
	if m := gopathLink.FindStringSubmatch(command); m != nil {
		return m[1]
	}
	return ""
}
