package coverage

import (
	"os"
	"strconv"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// fileCount is one file's expected counts.
type fileCount struct {
	path           string
	covered, total int64
}

func counts(t *testing.T, c *glv1.Coverage) []fileCount {
	t.Helper()
	var out []fileCount
	for _, f := range c.GetFiles() {
		out = append(out, fileCount{f.GetPath(), f.GetCoveredLines(), f.GetTotalLines()})
	}
	return out
}

// checkCoverage compares a parsed report with its files, total and tool.
func checkCoverage(t *testing.T, c *glv1.Coverage, want []fileCount, covered, total int64, tool string) {
	t.Helper()
	got := counts(t, c)
	if len(got) != len(want) {
		t.Fatalf("files = %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("file %d = %v, want %v", i, got[i], want[i])
		}
	}
	if c.GetCoveredLines() != covered || c.GetTotalLines() != total {
		t.Errorf("total = %d/%d, want %d/%d", c.GetCoveredLines(), c.GetTotalLines(), covered, total)
	}
	if len(c.GetTools()) != 1 || c.GetTools()[0] != tool {
		t.Errorf("tools = %v, want [%s]", c.GetTools(), tool)
	}
}

func TestParseCapturedReports(t *testing.T) {
	tests := []struct {
		name           string
		file           string
		parse          func(*os.File) (*Set, error)
		want           []fileCount
		covered, total int64
		tool           string
	}{
		{
			// go test -json ./... with GOFLAGS=-coverprofile in greenlight/sandbox-go
			// (testdata/go-test.coverprofile); the module is example.com/calc in sub/.
			name: "go profile", file: "testdata/go-test.coverprofile",
			parse: func(f *os.File) (*Set, error) { return ParseGoProfile(f, "example.com/calc", "sub") },
			want:  []fileCount{{"sub/calc/calc.go", 1, 4}, {"sub/main.go", 0, 1}}, covered: 1, total: 5, tool: GoTool,
		},
		{
			name: "go profile, other module keeps import paths", file: "testdata/go-test.coverprofile",
			parse: func(f *os.File) (*Set, error) { return ParseGoProfile(f, "example.com/other", "") },
			want:  []fileCount{{"example.com/calc/calc/calc.go", 1, 4}, {"example.com/calc/main.go", 0, 1}}, covered: 1, total: 5, tool: GoTool,
		},
		{
			// pytest with PYTEST_ADDOPTS=--cov=. --cov-report=lcov:... in
			// greenlight/sandbox-python (pytest-cov 4.0.0, coverage 6.5.0).
			name: "coverage.py lcov, tests left out", file: "testdata/pytest.lcov",
			parse: func(f *os.File) (*Set, error) { return ParseLCOV(f, ".", "coverage.py", true) },
			want:  []fileCount{{"calc/__init__.py", 3, 6}}, covered: 3, total: 6, tool: "coverage.py",
		},
		{
			name: "coverage.py lcov, tests kept", file: "testdata/pytest.lcov",
			parse: func(f *os.File) (*Set, error) { return ParseLCOV(f, "py", "coverage.py", false) },
			want:  []fileCount{{"py/calc/__init__.py", 3, 6}, {"py/tests/test_calc.py", 3, 3}}, covered: 6, total: 9, tool: "coverage.py",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := os.Open(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			set, err := tt.parse(f)
			if err != nil {
				t.Fatal(err)
			}
			c := set.Proto()
			checkCoverage(t, c, tt.want, tt.covered, tt.total, tt.tool)
			if want := float64(tt.covered) * 100 / float64(tt.total); c.GetPercent() != want {
				t.Errorf("percent = %v, want %v", c.GetPercent(), want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in string
		lcov     bool
		want     string
	}{
		{name: "go empty", in: "", want: "empty"},
		{name: "go no mode line", in: "a.go:1.1,2.2 1 1\n", want: "mode line"},
		{name: "go malformed block", in: "mode: set\na.go:1.1,2.2 x 1\n", want: "malformed"},
		{name: "go missing count", in: "mode: set\na.go:1.1,2.2 1\n", want: "malformed"},
		{name: "lcov no record", in: "TN:\n", lcov: true, want: "no SF record"},
		{name: "lcov DA outside record", in: "DA:1,1\n", lcov: true, want: "outside a record"},
		{name: "lcov malformed DA", in: "SF:a.py\nDA:x,1\n", lcov: true, want: "malformed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.lcov {
				_, err = ParseLCOV(strings.NewReader(tt.in), ".", "t", false)
			} else {
				_, err = ParseGoProfile(strings.NewReader(tt.in), "m", ".")
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestMergeCountsAUnitOnceAndAnyHit(t *testing.T) {
	// Two test binaries' profiles (or two steps) naming the same block:
	// counted once, covered when either ran it.
	a, err := ParseGoProfile(strings.NewReader("mode: set\nm/a.go:1.1,2.2 3 0\nm/a.go:3.1,4.2 2 0\n"), "m", ".")
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseGoProfile(strings.NewReader("mode: count\nm/a.go:1.1,2.2 3 7\n"), "m", ".")
	if err != nil {
		t.Fatal(err)
	}
	s := NewSet()
	s.Merge(a)
	s.Merge(b)
	c := s.Proto()
	if c.GetCoveredLines() != 3 || c.GetTotalLines() != 5 {
		t.Fatalf("merged = %d/%d, want 3/5", c.GetCoveredLines(), c.GetTotalLines())
	}
	if len(c.GetTools()) != 1 {
		t.Errorf("tools = %v, want one", c.GetTools())
	}
}

func TestLCOVPathsOutsideTheWorkspaceAreLeftOut(t *testing.T) {
	in := "SF:/usr/lib/python3/dist-packages/six.py\nDA:1,1\nend_of_record\n" +
		"SF:/workspace/svc/app.py\nDA:1,1\nDA:2,0\nend_of_record\n" +
		"SF:../../outside.py\nDA:1,1\nend_of_record\n"
	s, err := ParseLCOV(strings.NewReader(in), "svc", "t", false)
	if err != nil {
		t.Fatal(err)
	}
	got := counts(t, s.Proto())
	if len(got) != 1 || got[0] != (fileCount{"svc/app.py", 1, 2}) {
		t.Fatalf("files = %v, want only svc/app.py 1/2", got)
	}
}

func TestProtoCapsFilesButCountsAll(t *testing.T) {
	s := NewSet()
	for i := 0; i < MaxFiles+3; i++ {
		s.add(strings.Repeat("d/", 1)+string(rune('a'+i%26))+strings.Repeat("x", i/26)+".go", "1", Unit{N: 1, Hit: i%2 == 0})
	}
	c := s.Proto()
	if len(c.GetFiles()) != MaxFiles || c.GetFilesOmitted() != 3 || c.GetTotalLines() != MaxFiles+3 {
		t.Fatalf("files %d, omitted %d, total %d; want %d, 3, %d", len(c.GetFiles()), c.GetFilesOmitted(), c.GetTotalLines(), MaxFiles, MaxFiles+3)
	}
}

func TestEmptySetHasNoProto(t *testing.T) {
	if c := NewSet().Proto(); c != nil {
		t.Fatalf("empty set = %v, want nil", c)
	}
}

func TestCompareShowsCodeAddedWithoutTests(t *testing.T) {
	base := &glv1.Coverage{CoveredLines: 8, TotalLines: 10, Percent: 80, Files: []*glv1.FileCoverage{
		{Path: "a.go", CoveredLines: 8, TotalLines: 10},
	}}
	tests := []struct {
		name      string
		cur       []*glv1.FileCoverage
		baseOmit  int32
		wantDelta []int64
		wantNew   []bool
	}{
		{
			name:      "patch adds untested lines to a file",
			cur:       []*glv1.FileCoverage{{Path: "a.go", CoveredLines: 8, TotalLines: 14}},
			wantDelta: []int64{4}, wantNew: []bool{false},
		},
		{
			name:      "patch adds tests",
			cur:       []*glv1.FileCoverage{{Path: "a.go", CoveredLines: 10, TotalLines: 10}},
			wantDelta: []int64{-2}, wantNew: []bool{false},
		},
		{
			name:      "patch adds an untested file",
			cur:       []*glv1.FileCoverage{{Path: "a.go", CoveredLines: 8, TotalLines: 10}, {Path: "b.go", CoveredLines: 1, TotalLines: 5}},
			wantDelta: []int64{0, 4}, wantNew: []bool{false, true},
		},
		{
			name:      "file past the baseline's cap is not new",
			cur:       []*glv1.FileCoverage{{Path: "z.go", CoveredLines: 1, TotalLines: 5}},
			baseOmit:  1,
			wantDelta: []int64{0}, wantNew: []bool{false},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &glv1.Coverage{CoveredLines: base.CoveredLines, TotalLines: base.TotalLines, Percent: base.Percent, Files: base.Files, FilesOmitted: tt.baseOmit}
			cur := &glv1.Coverage{Files: tt.cur}
			Compare(cur, b)
			if cur.GetBaseline().GetPercent() != 80 || cur.GetBaseline().GetTotalLines() != 10 {
				t.Errorf("baseline = %v, want 8/10 80%%", cur.GetBaseline())
			}
			for i, f := range cur.GetFiles() {
				if f.GetUncoveredChange() != tt.wantDelta[i] || f.GetNewFile() != tt.wantNew[i] {
					t.Errorf("%s: change %d new %v, want %d %v", f.GetPath(), f.GetUncoveredChange(), f.GetNewFile(), tt.wantDelta[i], tt.wantNew[i])
				}
			}
		})
	}
}

func TestCompareWithoutBaselineCoverage(t *testing.T) {
	cur := &glv1.Coverage{Files: []*glv1.FileCoverage{{Path: "a.go", TotalLines: 3}}}
	Compare(cur, nil)
	if cur.GetBaseline() != nil || cur.GetFiles()[0].GetNewFile() {
		t.Fatalf("compare with no baseline changed the coverage: %v", cur)
	}
}

func TestIsTestFile(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{"tests/__init__.py", true},
		{"pkg/tests/helpers.py", true},
		{"test/util.py", true},
		{"calc/test_calc.py", true},
		{"calc/calc_test.py", true},
		{"conftest.py", true},
		{"calc/__init__.py", false},
		{"calc/testing.py", false},
		{"contest/app.py", false},
	}
	for _, tt := range tests {
		if got := isTestFile(tt.path); got != tt.want {
			t.Errorf("isTestFile(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestGopathImport(t *testing.T) {
	tests := []struct{ cmd, want string }{
		{`mkdir -p /tmp/gopath/src/github.com/a && ln -sfn "$PWD" /tmp/gopath/src/github.com/a/b && cd /tmp/gopath/src/github.com/a/b && go test ./...`, "github.com/a/b"},
		{"go test -json ./...", ""},
	}
	for _, tt := range tests {
		if got := GopathImport(tt.cmd); got != tt.want {
			t.Errorf("GopathImport(%q) = %q, want %q", tt.cmd, got, tt.want)
		}
	}
}

func TestModulePath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"module example.com/calc\n\ngo 1.22\n", "example.com/calc"},
		{"// comment\nmodule \"example.com/q\" // trailing\n", "example.com/q"},
		{"modulex foo\n", ""},
		{"go 1.22\n", ""},
	}
	for _, tt := range tests {
		if got := ModulePath([]byte(tt.in)); got != tt.want {
			t.Errorf("ModulePath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseV8CapturedReport(t *testing.T) {
	// testdata/node/coverage-test-process.json is the file Node 18 wrote for
	// the test process of `npm test` (`node --test`) in
	// greenlight/sandbox-node with NODE_V8_COVERAGE set, cut to one internal
	// script and the workspace's; src/ holds the sources it ran.
	read := func(rel string) ([]byte, bool) {
		b, err := os.ReadFile("testdata/node/src/" + rel)
		return b, err == nil
	}
	tests := []struct {
		name string
		src  Source
		want []fileCount
	}{
		// calc.js: add's 3 lines and module.exports ran, div's 6 did not;
		// the comment line and blank lines do not count; the test file is
		// left out.
		{"sources at hand", read, []fileCount{{"calc.js", 4, 10}}},
		{"source changed since (transformed)", func(rel string) ([]byte, bool) {
			b, ok := read(rel)
			return append(b, '\n'), ok
		}, nil},
		{"no source", func(string) ([]byte, bool) { return nil, false }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := os.Open("testdata/node/coverage-test-process.json")
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			s, err := ParseV8(f, tt.src)
			if err != nil {
				t.Fatal(err)
			}
			got := counts(t, s.Proto())
			if len(got) != len(tt.want) {
				t.Fatalf("files = %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("file %d = %v, want %v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestParseV8LinesAndPaths(t *testing.T) {
	src := "function f(x) {\n  if (x) {\n    return 1;\n  }\n  return 2;\n}\nf(0);\n"
	// V8's ranges for f(0): the script, f (ran once), the if block (never).
	doc := `{"result":[
	  {"url":"file:///workspace/lib/f.js","functions":[
	    {"ranges":[{"startOffset":0,"endOffset":` + strconv.Itoa(len(src)) + `,"count":1}]},
	    {"ranges":[{"startOffset":0,"endOffset":63,"count":1},{"startOffset":24,"endOffset":44,"count":0}]}]},
	  {"url":"file:///workspace/node_modules/dep/index.js","functions":[{"ranges":[{"startOffset":0,"endOffset":1,"count":1}]}]},
	  {"url":"file:///workspace/lib/f.test.js","functions":[{"ranges":[{"startOffset":0,"endOffset":1,"count":1}]}]},
	  {"url":"file:///workspace/lib/f.ts","functions":[{"ranges":[{"startOffset":0,"endOffset":1,"count":1}]}]},
	  {"url":"file:///etc/passwd.js","functions":[{"ranges":[{"startOffset":0,"endOffset":1,"count":1}]}]},
	  {"url":"node:internal/x","functions":[]}]}`
	files := map[string]string{"lib/f.js": src, "node_modules/dep/index.js": "x", "lib/f.test.js": "x", "lib/f.ts": "x"}
	s, err := ParseV8(strings.NewReader(doc), func(rel string) ([]byte, bool) {
		b, ok := files[rel]
		return []byte(b), ok
	})
	if err != nil {
		t.Fatal(err)
	}
	got := counts(t, s.Proto())
	// Lines 1, 2, 5, 6, 7 ran; 3 and 4 (the if block) did not.
	if len(got) != 1 || got[0] != (fileCount{"lib/f.js", 5, 7}) {
		t.Fatalf("files = %v, want only lib/f.js 5/7", got)
	}
	if _, err := ParseV8(strings.NewReader("{"), nil); err == nil {
		t.Error("a truncated file parsed")
	}
}
