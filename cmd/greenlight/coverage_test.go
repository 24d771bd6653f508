package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree writes files (path → content) under a new directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, content := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// coverageGo is a Go module whose test covers Add and not Div (1 of the 4
// statements of calc/calc.go, 0 of main.go's 1).
var coverageGo = map[string]string{
	"go.mod":  "module example.com/calc\n\ngo 1.22\n",
	"main.go": "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/calc/calc\"\n)\n\nfunc main() { fmt.Println(calc.Add(1, 2)) }\n",
	"calc/calc.go": "package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n\n// Div divides.\nfunc Div(a, b int) int {\n" +
		"\tif b == 0 {\n\t\treturn 0\n\t}\n\treturn a / b\n}\n",
	"calc/calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != WANT {\n\t\tt.Fatal(\"bad\")\n\t}\n}\n",
}

// coveragePython is the same project in Python (3 of calc/__init__.py's 6
// lines run; the test code under tests/ is not counted).
var coveragePython = map[string]string{
	"pyproject.toml":     "[project]\nname = \"calc\"\nversion = \"0.1\"\n",
	"calc/__init__.py":   "def add(a, b):\n    return a + b\n\n\ndef div(a, b):\n    if b == 0:\n        return 0\n    return a / b\n",
	"tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == WANT\n",
	"tests/__init__.py":  "",
	"tests/conftest.py":  "import os\n",
}

// coverageNode is the same project for Node's own test runner (4 of
// calc.js's 10 lines run: add's three and module.exports; the comment and
// blank lines do not count, nor does the test file).
var coverageNode = map[string]string{
	"package.json": `{"name": "calc", "version": "1.0.0", "scripts": {"test": "node --test"}}` + "\n",
	"calc.js": "// calc adds and divides.\nfunction add(a, b) {\n  return a + b;\n}\n\nfunction div(a, b) {\n  if (b === 0) {\n    return 0;\n  }\n" +
		"  return a / b;\n}\n\nmodule.exports = { add, div };\n",
	"test/calc.test.js": "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../calc');\n\n" +
		"test('add', () => {\n  assert.strictEqual(add(1, 2), WANT);\n});\n",
}

// TestCoverageOfRealProjects verifies a small Go, Node, Python and C project in the
// sandbox images: the coverage the toolchain's own tool measured is in
// --json (per file and in total, the score's component beside the total),
// in the SARIF run properties and in the Markdown summary; a failing test
// keeps the run FAIL with the same coverage shown.
func TestCoverageOfRealProjects(t *testing.T) {
	requireDocker(t)
	type file struct {
		Path         string `json:"path"`
		CoveredLines int64  `json:"covered_lines"`
		TotalLines   int64  `json:"total_lines"`
	}
	tests := []struct {
		name     string
		files    map[string]string
		want     string // the test's expected value: "3" passes, "4" fails
		status   string
		exit     int
		covered  int64
		total    int64
		perFile  []file
		tool     string
		markdown string
		// yaml is a greenlight.yaml to add; score the total it gives.
		yaml  string
		score float64
	}{
		{name: "go", files: coverageGo, want: "3", status: "PASS", covered: 1, total: 5,
			perFile: []file{{"calc/calc.go", 1, 4}, {"main.go", 0, 1}}, tool: "go test -coverprofile", markdown: "### Coverage: 20.0% (1 of 5)", score: 10},
		// coverage.score feeds the 20% into the tests component: 4 × (0.5 + 0.5 × 0.2) = 2.4.
		{name: "go, coverage.score", files: coverageGo, want: "3", status: "PASS", covered: 1, total: 5,
			perFile: []file{{"calc/calc.go", 1, 4}, {"main.go", 0, 1}}, tool: "go test -coverprofile", markdown: "### Coverage: 20.0% (1 of 5)",
			yaml: "coverage:\n  score: true\n", score: 8.4},
		{name: "go failing", files: coverageGo, want: "4", status: "FAIL", exit: 1, covered: 1, total: 5,
			perFile: []file{{"calc/calc.go", 1, 4}, {"main.go", 0, 1}}, tool: "go test -coverprofile", markdown: "### Coverage: 20.0% (1 of 5)"},
		{name: "node", files: coverageNode, want: "3", status: "PASS", covered: 4, total: 10,
			perFile: []file{{"calc.js", 4, 10}}, tool: "node NODE_V8_COVERAGE", markdown: "### Coverage: 40.0% (4 of 10)"},
		{name: "node failing", files: coverageNode, want: "4", status: "FAIL", exit: 1, covered: 4, total: 10,
			perFile: []file{{"calc.js", 4, 10}}, tool: "node NODE_V8_COVERAGE", markdown: "### Coverage: 40.0% (4 of 10)"},
		{name: "python", files: coveragePython, want: "3", status: "PASS", covered: 3, total: 6,
			perFile: []file{{"calc/__init__.py", 3, 6}}, tool: "coverage.py", markdown: "### Coverage: 50.0% (3 of 6)"},
		{name: "python failing", files: coveragePython, want: "4", status: "FAIL", exit: 1, covered: 3, total: 6,
			perFile: []file{{"calc/__init__.py", 3, 6}}, tool: "coverage.py", markdown: "### Coverage: 50.0% (3 of 6)"},
		// C/C++ (coverage_c_test.go): gcov through the C/C++ image's wrappers.
		{name: "c make", files: coverageMake, want: "3", status: "PASS", covered: 10, total: 16,
			perFile: []file{{"src/calc.c", 4, 6}, {"src/calc.h", 1, 1}, {"src/sum.cc", 5, 5}, {"src/unused.c", 0, 4}}, tool: "gcov", markdown: "### Coverage: 62.5% (10 of 16)"},
		{name: "c cmake", files: coverageCMake, want: "3", status: "PASS", covered: 10, total: 12,
			perFile: []file{{"src/calc.c", 4, 6}, {"src/calc.h", 1, 1}, {"src/sum.cc", 5, 5}}, tool: "gcov", markdown: "### Coverage: 83.3% (10 of 12)"},
		// The test stops at add: the report is still written after ctest fails.
		{name: "c cmake failing", files: coverageCMake, want: "4", status: "FAIL", exit: 1, covered: 1, total: 12,
			perFile: []file{{"src/calc.c", 1, 6}, {"src/calc.h", 0, 1}, {"src/sum.cc", 0, 5}}, tool: "gcov", markdown: "### Coverage: 8.3% (1 of 12)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{}
			for p, c := range tc.files {
				files[p] = strings.ReplaceAll(c, "WANT", tc.want)
			}
			if tc.yaml != "" {
				files["greenlight.yaml"] = tc.yaml
			}
			dir := writeTree(t, files)
			u := newUser(t)
			res := u.run(nil, "verify", "-q", "--json", dir)
			res.wantExit(t, tc.exit, "verify --json")
			var doc struct {
				Status   string `json:"status"`
				RunID    string `json:"run_id"`
				Coverage *struct {
					CoveredLines int64    `json:"covered_lines"`
					TotalLines   int64    `json:"total_lines"`
					Tools        []string `json:"tools"`
					Files        []file   `json:"files"`
				} `json:"coverage"`
				Score struct {
					Total    float64  `json:"total"`
					Coverage *float64 `json:"coverage"`
				} `json:"score"`
			}
			if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil {
				t.Fatalf("--json: %v\n%s", err, res.stdout)
			}
			if doc.Status != tc.status {
				t.Fatalf("status %s, want %s", doc.Status, tc.status)
			}
			c := doc.Coverage
			if c == nil {
				t.Fatalf("no coverage in --json:\n%s\n%s", res.stdout, res.stderr)
			}
			if c.CoveredLines != tc.covered || c.TotalLines != tc.total || len(c.Tools) != 1 || c.Tools[0] != tc.tool {
				t.Errorf("coverage %d/%d by %v, want %d/%d by %s", c.CoveredLines, c.TotalLines, c.Tools, tc.covered, tc.total, tc.tool)
			}
			if len(c.Files) != len(tc.perFile) {
				t.Fatalf("files %v, want %v", c.Files, tc.perFile)
			}
			for i := range c.Files {
				if c.Files[i] != tc.perFile[i] {
					t.Errorf("file %v, want %v", c.Files[i], tc.perFile[i])
				}
			}
			// percent/100 and covered/total may differ in the last bit.
			if want := float64(tc.covered) / float64(tc.total); doc.Score.Coverage == nil || math.Abs(*doc.Score.Coverage-want) > 1e-12 {
				t.Errorf("score.coverage = %v, want %v", doc.Score.Coverage, want)
			}
			if tc.score != 0 && doc.Score.Total != tc.score {
				t.Errorf("score.total = %v, want %v", doc.Score.Total, tc.score)
			}

			sarif := u.run(nil, "show", "--format", "sarif", doc.RunID)
			sarif.wantExit(t, tc.exit, "show --format sarif")
			var log struct {
				Runs []struct {
					Properties struct {
						Coverage struct {
							CoveredLines int64 `json:"coveredLines"`
							TotalLines   int64 `json:"totalLines"`
						} `json:"coverage"`
					} `json:"properties"`
				} `json:"runs"`
			}
			if err := json.Unmarshal([]byte(sarif.stdout), &log); err != nil || len(log.Runs) != 1 {
				t.Fatalf("sarif: %v\n%s", err, sarif.stdout)
			}
			if p := log.Runs[0].Properties.Coverage; p.CoveredLines != tc.covered || p.TotalLines != tc.total {
				t.Errorf("sarif coverage %d/%d, want %d/%d", p.CoveredLines, p.TotalLines, tc.covered, tc.total)
			}
			md := u.run(nil, "show", "--markdown", doc.RunID)
			if !strings.Contains(md.stdout, tc.markdown) {
				t.Errorf("markdown lacks %q:\n%s", tc.markdown, md.stdout)
			}
		})
	}
}

// coverageFixPatch fixes coverageGo's Add (made wrong below) and adds a
// function no test calls, in a new file.
const coverageFixPatch = `--- a/calc/calc.go
+++ b/calc/calc.go
@@ -1,4 +1,4 @@
 package calc
 
 // Add adds.
-func Add(a, b int) int { return a + b + 1 }
+func Add(a, b int) int { return a + b }
--- /dev/null
+++ b/calc/extra.go
@@ -0,0 +1,4 @@
+package calc
+
+// Mul multiplies.
+func Mul(a, b int) int { return a * b }
`

// TestFixRunShowsCodeAddedWithoutTests: a fix run whose patch makes the
// test pass and adds an untested function ends green (coverage decides
// nothing), and its result compares coverage with the baseline: the new
// file is marked new with its uncovered line, the baseline's total is
// there, and the Markdown summary shows the change.
func TestFixRunShowsCodeAddedWithoutTests(t *testing.T) {
	requireDocker(t)
	files := map[string]string{}
	for p, c := range coverageGo {
		files[p] = strings.ReplaceAll(c, "WANT", "3")
	}
	files["calc/calc.go"] = strings.Replace(files["calc/calc.go"], "return a + b }", "return a + b + 1 }", 1)
	dir := writeTree(t, files)
	patch := filepath.Join(t.TempDir(), "fix.patch")
	if err := os.WriteFile(patch, []byte(coverageFixPatch), 0o644); err != nil {
		t.Fatal(err)
	}
	u := newUser(t)
	res := u.run(nil, "fix", "-q", "--json", "--provider", "command", "--command", "cat '"+patch+"'", dir)
	res.wantExit(t, 0, "fix --provider command")
	var doc struct {
		Status   string `json:"status"`
		RunID    string `json:"run_id"`
		Coverage *struct {
			CoveredLines int64 `json:"covered_lines"`
			TotalLines   int64 `json:"total_lines"`
			Files        []struct {
				Path            string `json:"path"`
				UncoveredChange int64  `json:"uncovered_change"`
				NewFile         bool   `json:"new_file"`
			} `json:"files"`
			Baseline *struct {
				CoveredLines int64 `json:"covered_lines"`
				TotalLines   int64 `json:"total_lines"`
			} `json:"baseline"`
		} `json:"coverage"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil {
		t.Fatalf("--json: %v\n%s", err, res.stdout)
	}
	c := doc.Coverage
	if doc.Status != "PASS" || c == nil || c.Baseline == nil {
		t.Fatalf("status %s, coverage %+v; want PASS with a baseline\n%s", doc.Status, c, res.stderr)
	}
	// Baseline: Add ran (the test failed on its value), 1 of 5 statements.
	if c.Baseline.CoveredLines != 1 || c.Baseline.TotalLines != 5 || c.CoveredLines != 1 || c.TotalLines != 6 {
		t.Errorf("coverage %d/%d, baseline %d/%d; want 1/6 and 1/5", c.CoveredLines, c.TotalLines, c.Baseline.CoveredLines, c.Baseline.TotalLines)
	}
	var extra bool
	for _, f := range c.Files {
		switch f.Path {
		case "calc/extra.go":
			extra = true
			if !f.NewFile || f.UncoveredChange != 1 {
				t.Errorf("calc/extra.go: new %v, uncovered change %d; want new, +1", f.NewFile, f.UncoveredChange)
			}
		case "calc/calc.go", "main.go":
			if f.NewFile || f.UncoveredChange != 0 {
				t.Errorf("%s: new %v, uncovered change %d; want neither", f.Path, f.NewFile, f.UncoveredChange)
			}
		}
	}
	if !extra {
		t.Errorf("calc/extra.go not in the coverage: %+v", c.Files)
	}
	md := u.run(nil, "show", "--markdown", doc.RunID)
	for _, want := range []string{"### Coverage: 16.7% (1 of 6), baseline 20.0% (-3.3 points)", "| `calc/extra.go` | 0/1 | 0.0 | +1 (new file) |"} {
		if !strings.Contains(md.stdout, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.stdout)
		}
	}
}
