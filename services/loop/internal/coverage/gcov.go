package coverage

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
)

// GcovTool names gcc's gcov in the result.
const GcovTool = "gcov"

// maxGcovJSON caps the JSON a gcov report may decompress to: the report
// comes from the sandbox, and a small gzip can expand without bound.
const maxGcovJSON = 256 << 20

// errGcovTooLarge ends a report that decompresses past the cap.
var errGcovTooLarge = errors.New("report larger than the cap uncompressed")

// gcovDoc is one document of `gcov --json-format --stdout` (gcc 12's
// format_version 1; later versions add fields): one object file, the
// directory it was compiled in, and per source file the lines that hold
// code with how often they ran.
type gcovDoc struct {
	CWD   string `json:"current_working_directory"`
	Files []struct {
		File  string `json:"file"`
		Lines []struct {
			Line  int     `json:"line_number"`
			Count float64 `json:"count"`
		} `json:"lines"`
	} `json:"files"`
}

// ParseGcov reads the report the C/C++ image's gcov-report writes after a
// measured test step: gcov's JSON documents, one per object file, one
// after the other, gzipped (several gzip members are read as one stream;
// plain JSON is read as is). A source path is relative to the document's
// compile directory or absolute; only files in the sandbox's workspace
// are kept (system and toolchain headers are not), nor are test code
// and what CMake compiles to identify the compiler (CMakeFiles/).
// An object whose program never ran has counts of zero: its lines count
// as not run. A line compiled into several objects (a header, a source
// in a static and a shared library) counts once, as run when any ran it.
//
// inTree, when not nil, reports whether a workspace path is a file of the
// snapshot: what the build generated (a header CMake's configure_file
// wrote into the build directory, a parser bison wrote) is left out, so
// the result names the repository's own files.
func ParseGcov(r io.Reader, inTree func(rel string) bool) (*Set, error) {
	return parseGcov(r, inTree, maxGcovJSON)
}

// parseGcov is ParseGcov with the cap on the decompressed JSON.
func parseGcov(r io.Reader, inTree func(rel string) bool, limit int64) (*Set, error) {
	br := bufio.NewReader(r)
	var src io.Reader = br
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gcov: %w", err)
		}
		defer zr.Close()
		src = zr
	}
	dec := json.NewDecoder(&capReader{r: src, left: limit})
	s := NewSet()
	docs := 0
	for {
		var doc gcovDoc
		err := dec.Decode(&doc)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("gcov: document %d: %w", docs+1, err)
		}
		docs++
		for _, f := range doc.Files {
			p, ok := gcovSource(doc.CWD, f.File)
			if !ok || inTree != nil && !inTree(p) {
				continue
			}
			for _, ln := range f.Lines {
				if ln.Line > 0 {
					s.add(p, strconv.Itoa(ln.Line), Unit{N: 1, Hit: ln.Count > 0})
				}
			}
		}
	}
	if docs == 0 {
		return nil, fmt.Errorf("gcov: no document")
	}
	s.Tools = []string{GcovTool}
	return s, nil
}

// gcovSource is a gcov source path as a workspace path; false for a file
// outside the workspace, test code or CMake's own probe sources.
func gcovSource(cwd, file string) (string, bool) {
	if file == "" {
		return "", false
	}
	if !path.IsAbs(file) {
		if !path.IsAbs(cwd) {
			return "", false // relative to an unknown directory
		}
		file = path.Join(cwd, file)
	}
	p, ok := Join("", file)
	if !ok || p == "." || isCTestFile(p) {
		return "", false
	}
	for _, dir := range strings.Split(path.Dir(p), "/") {
		if dir == "CMakeFiles" {
			return "", false
		}
	}
	return p, true
}

// isCTestFile reports whether a C/C++ path is test code: anything under a
// test/, tests/ or testing/ directory (where C projects keep their tests
// and vendored test frameworks such as Unity), or a file named test.c,
// tests.c (cJSON's test program sits at its root), test_*, *_test or
// *_unittest.
func isCTestFile(p string) bool {
	for _, dir := range strings.Split(path.Dir(p), "/") {
		switch dir {
		case "test", "tests", "testing", "unittest", "unittests":
			return true
		}
	}
	b := path.Base(p)
	stem := strings.TrimSuffix(b, path.Ext(b))
	return stem == "test" || stem == "tests" || strings.HasPrefix(b, "test_") ||
		strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, "_unittest")
}

// capReader reads at most left bytes and then fails with errGcovTooLarge
// rather than ending as if the input were complete.
type capReader struct {
	r    io.Reader
	left int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, errGcovTooLarge
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}
