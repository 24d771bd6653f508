package coverage

import (
	"bytes"
	"compress/gzip"
	"os"
	"strings"
	"testing"
)

// gzipped compresses each part as its own gzip member, one after the
// other, as a report written by more than one gzip would be.
func gzipped(t *testing.T, parts ...[]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, p := range parts {
		zw := gzip.NewWriter(&b)
		if _, err := zw.Write(p); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// The captured reports are what images/cpp's gcov-report wrote in
// greenlight/sandbox-cpp (gcc 12.2) after a measured test step, unzipped:
// testdata/gcov-make.json from `make test` (relative paths, compiled in
// /workspace; src/unused.o never ran; src/sum.cc pulls in libstdc++'s
// headers), testdata/gcov-cmake.json from ctest after cmake's build in
// .greenlight-build (absolute paths, CMake's compiler probes).
func TestParseGcovCaptured(t *testing.T) {
	tests := []struct {
		name           string
		file           string
		zip            bool
		want           []fileCount
		covered, total int64
	}{
		{
			name:    "make: relative paths, an object that never ran, system headers and tests left out",
			file:    "testdata/gcov-make.json",
			want:    []fileCount{{"src/calc.c", 4, 6}, {"src/calc.h", 1, 1}, {"src/sum.cc", 5, 5}, {"src/unused.c", 0, 4}},
			covered: 10, total: 16,
		},
		{
			name: "make, gzipped as gcov-report writes it", file: "testdata/gcov-make.json", zip: true,
			want:    []fileCount{{"src/calc.c", 4, 6}, {"src/calc.h", 1, 1}, {"src/sum.cc", 5, 5}, {"src/unused.c", 0, 4}},
			covered: 10, total: 16,
		},
		{
			name: "cmake: absolute paths, CMakeFiles probes left out", file: "testdata/gcov-cmake.json", zip: true,
			want:    []fileCount{{"src/calc.c", 4, 6}, {"src/calc.h", 1, 1}, {"src/sum.cc", 5, 5}},
			covered: 10, total: 12,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := os.ReadFile(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if tt.zip {
				// Two members: the first document alone, then the rest.
				i := bytes.IndexByte(b, '\n') + 1
				b = gzipped(t, b[:i], b[i:])
			}
			set, err := ParseGcov(bytes.NewReader(b), nil)
			if err != nil {
				t.Fatal(err)
			}
			checkCoverage(t, set.Proto(), tt.want, tt.covered, tt.total, GcovTool)
		})
	}
}

// A line compiled into two objects (a header's inline function, a source
// in a static and a shared library) counts once, run when either ran it.
func TestParseGcovMergesObjects(t *testing.T) {
	in := `{"current_working_directory": "/workspace", "files": [{"file": "lib.h", "lines": [{"line_number": 3, "count": 0}, {"line_number": 4, "count": 0}]}]}
{"current_working_directory": "/workspace/build", "files": [{"file": "../lib.h", "lines": [{"line_number": 3, "count": 2}]}]}
`
	set, err := ParseGcov(strings.NewReader(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := counts(t, set.Proto())
	if len(got) != 1 || got[0] != (fileCount{"lib.h", 1, 2}) {
		t.Fatalf("files = %v, want lib.h 1/2", got)
	}
}

// What the build generated (not a file of the snapshot) is left out:
// jansson's CMake build copies include/jansson.h into its build directory.
func TestParseGcovKeepsTheSnapshotsFiles(t *testing.T) {
	in := `{"current_working_directory": "/workspace/.greenlight-build", "files": [` +
		`{"file": "/workspace/.greenlight-build/include/jansson.h", "lines": [{"line_number": 3, "count": 1}]},` +
		`{"file": "/workspace/src/jansson.h", "lines": [{"line_number": 3, "count": 1}, {"line_number": 5, "count": 0}]}]}`
	tree := map[string]bool{"src/jansson.h": true}
	set, err := ParseGcov(strings.NewReader(in), func(rel string) bool { return tree[rel] })
	if err != nil {
		t.Fatal(err)
	}
	got := counts(t, set.Proto())
	if len(got) != 1 || got[0] != (fileCount{"src/jansson.h", 1, 2}) {
		t.Fatalf("files = %v, want only src/jansson.h 1/2", got)
	}
}

func TestGcovSource(t *testing.T) {
	tests := []struct {
		cwd, file, want string
	}{
		{"/workspace", "src/a.c", "src/a.c"},
		{"/workspace/build", "../src/a.c", "src/a.c"},
		{"/workspace/build", "/workspace/src/a.c", "src/a.c"},
		{"/workspace", "tests/../src/a.h", "src/a.h"},
		{"/workspace", "/usr/include/stdio.h", ""},
		{"/tmp/out", "a.c", ""},
		{"/workspace", "../../etc/a.c", ""},
		{"", "a.c", ""},
		{"/workspace/b/CMakeFiles/3.25.1/CompilerIdC", "CMakeCCompilerId.c", ""},
		{"/workspace", "tests/unity/src/unity.c", ""},
		{"/workspace", "test/suites/api/test_object.c", ""},
		{"/workspace", "src/parser_test.cc", ""},
		{"/workspace", "src/test_util.c", ""},
		{"/workspace", "src/testing.c", "src/testing.c"},
		{"/workspace", "test.c", ""},
		{"/workspace", "lib/tests.cpp", ""},
		{"/workspace", "src/attest.c", "src/attest.c"},
		{"/workspace", "contest.c", "contest.c"},
	}
	for _, tt := range tests {
		got, ok := gcovSource(tt.cwd, tt.file)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("gcovSource(%q, %q) = %q, %v; want %q", tt.cwd, tt.file, got, ok, tt.want)
		}
	}
}

func TestParseGcovErrors(t *testing.T) {
	const limit = 4 << 10
	bomb := gzipped(t, bytes.Repeat([]byte(" "), limit+1))
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{name: "empty", in: nil, want: "no document"},
		{name: "not json", in: []byte("gcov: cannot open\n"), want: "document 1"},
		{name: "truncated", in: []byte(`{"files": [{"file": "a.c", "lines": [`), want: "document 1"},
		{name: "second document broken", in: []byte("{\"files\": []}\n{\"files\": 3}\n"), want: "document 2"},
		{name: "bad gzip", in: []byte{0x1f, 0x8b, 0, 0}, want: "gcov"},
		{name: "decompresses past the cap", in: bomb, want: "larger than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseGcov(bytes.NewReader(tt.in), nil, limit)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}
