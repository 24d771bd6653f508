package locate

import (
	"testing"
	"testing/fstest"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// TestWindowsShowTheFunctionUnderTest: an assertion failure names only the
// test's line; the windows must also show the non-test definition of
// what the test calls there, ranked before the test itself.
func TestWindowsShowTheFunctionUnderTest(t *testing.T) {
	for _, tc := range []struct {
		name     string
		files    fstest.MapFS
		failure  parse.Failure
		wantFile string
		wantLine int32
	}{
		{"go", fstest.MapFS{
			"calc.go":      {Data: []byte("package calc\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a - b\n}\n\nfunc (c *Calc) Mul(a int) int { return a }\n")},
			"util.go":      {Data: []byte("package calc\n\nfunc helper() {}\n")},
			"calc_test.go": {Data: []byte("package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tgot := Add(1, 2)\n\tif got != 3 {\n\t\tt.Errorf(\"Add = %d\", got)\n\t}\n}\n")},
		}, parse.Failure{Test: "TestAdd", File: "calc_test.go", Line: 8, Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION}, "calc.go", 4},
		{"python", fstest.MapFS{
			"src/pkg/calc.py":     {Data: []byte("import math\n\n\ndef add(a, b):\n    return a - b\n")},
			"tests/test_calc.py":  {Data: []byte("from pkg.calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n")},
			"tests/conftest.py":   {Data: []byte("def add(a, b):\n    pass\n")},
			"docs/conf.py":        {Data: []byte("project = 'x'\n")},
			"node_modules/x/a.js": {Data: []byte("function add(a, b) {}\n")},
		}, parse.Failure{Test: "tests/test_calc.py::test_add", File: "tests/test_calc.py", Line: 5, Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION}, "src/pkg/calc.py", 4},
		{"javascript", fstest.MapFS{
			"index.js":      {Data: []byte("'use strict';\n\nconst clamp = (n, lo, hi) => Math.min(n, lo);\n\nmodule.exports = { clamp };\n")},
			"test/clamp.js": {Data: []byte("const { clamp } = require('..');\ntest('clamps', () => {\n  expect(clamp(5, 0, 3)).toBe(3);\n});\n")},
		}, parse.Failure{Test: "clamps", File: "test/clamp.js", Line: 3, Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION}, "index.js", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := FromFailures([]parse.Failure{tc.failure}, tc.files)
			if len(ws) < 2 {
				t.Fatalf("%d windows, want the definition and the test: %v", len(ws), ws)
			}
			if ws[0].GetFile() != tc.wantFile || ws[0].GetFocusLine() != tc.wantLine {
				t.Errorf("first window %s:%d, want %s:%d", ws[0].GetFile(), ws[0].GetFocusLine(), tc.wantFile, tc.wantLine)
			}
			if ws[1].GetFile() != tc.failure.File {
				t.Errorf("second window %s, want the test %s", ws[1].GetFile(), tc.failure.File)
			}
		})
	}
}
