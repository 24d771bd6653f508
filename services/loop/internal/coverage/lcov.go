package coverage

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
)

// ParseLCOV reads an LCOV trace file (SF: a source file, DA:LINE,HITS[,CHECKSUM]
// per line, end_of_record), as coverage.py, nyc and c8 write it. Paths are
// relative to the step's working directory workdir or absolute under the
// sandbox's workspace; others (installed packages) are left out, and so are
// test files when skipTests is set (coverage.py measures the tests too).
func ParseLCOV(r io.Reader, workdir, tool string, skipTests bool) (*Set, error) {
	s := NewSet()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	file, in, keep, records := "", false, false, 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "SF:"):
			records++
			p, ok := Join(workdir, strings.TrimPrefix(line, "SF:"))
			file, in, keep = p, true, ok && !(skipTests && isTestFile(p))
		case strings.HasPrefix(line, "DA:"):
			if !in {
				return nil, fmt.Errorf("lcov: DA line outside a record: %q", line)
			}
			parts := strings.Split(strings.TrimPrefix(line, "DA:"), ",")
			if len(parts) < 2 {
				return nil, fmt.Errorf("lcov: malformed line %q", line)
			}
			ln, err1 := strconv.Atoi(parts[0])
			hits, err2 := strconv.ParseFloat(parts[1], 64) // some writers print 1e3
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("lcov: malformed line %q", line)
			}
			if keep {
				s.add(file, strconv.Itoa(ln), Unit{N: 1, Hit: hits > 0})
			}
		case line == "end_of_record":
			file, in, keep = "", false, false
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("lcov: %w", err)
	}
	if records == 0 {
		return nil, fmt.Errorf("lcov: no SF record")
	}
	s.Tools = []string{tool}
	return s, nil
}

// isTestFile reports whether a Python path is test code: a module named
// as pytest collects tests, a conftest, or anything under a tests/ or
// test/ directory.
func isTestFile(p string) bool {
	b := path.Base(p)
	if strings.HasPrefix(b, "test_") && strings.HasSuffix(b, ".py") || strings.HasSuffix(b, "_test.py") || b == "conftest.py" {
		return true
	}
	for _, dir := range strings.Split(path.Dir(p), "/") {
		if dir == "tests" || dir == "test" {
			return true
		}
	}
	return false
}
