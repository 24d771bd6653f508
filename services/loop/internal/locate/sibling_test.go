package locate

import (
	"strings"
	"testing"
	"testing/fstest"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// TestWindowsShowTheSourceATestFileTests: when the failing test reaches
// the faulty code only through calls a regex cannot follow (an interface,
// a table-driven helper), the file the test file tests by name is shown:
// whole when small, else at the definitions sharing a word with the
// test's name.
func TestWindowsShowTheSourceATestFileTests(t *testing.T) {
	big := "package timefmt\n\n" + strings.Repeat("// filler\n", 150) + "func formatZero() string {\n\treturn \"0\"\n}\n\nfunc other() {}\n"
	for _, tc := range []struct {
		name     string
		files    fstest.MapFS
		failure  parse.Failure
		wantFile string
		wantLine int32
	}{
		{"a small Go sibling, whole", fstest.MapFS{
			"time.go":      {Data: []byte("package flag\n\ntype timeValue struct{}\n\nfunc (t *timeValue) String() string { return \"x\" }\n")},
			"time_test.go": {Data: []byte("package flag\n\nimport \"testing\"\n\nfunc TestTimeDefaultZero(t *testing.T) {\n\tusage := helper()\n\tif usage != \"\" {\n\t\tt.Error(usage)\n\t}\n}\n")},
		}, parse.Failure{Test: "example.com/flag.TestTimeDefaultZero", File: "time_test.go", Line: 8}, "time.go", 1},
		{"a big Python sibling, at the named definition", fstest.MapFS{
			"pkg/timefmt.py":        {Data: []byte(strings.ReplaceAll(strings.ReplaceAll(big, "func ", "def "), "package timefmt", "import os"))},
			"tests/test_timefmt.py": {Data: []byte("from pkg import timefmt\n\n\ndef test_zero_format():\n    assert timefmt.run() == 0\n")},
		}, parse.Failure{Test: "tests/test_timefmt.py::test_zero_format", File: "tests/test_timefmt.py", Line: 5}, "pkg/timefmt.py", 153},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.failure.Kind = glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION
			ws := FromFailures([]parse.Failure{tc.failure}, tc.files)
			for _, w := range ws {
				if w.GetFile() == tc.wantFile && w.GetFocusLine() == tc.wantLine {
					return
				}
			}
			t.Errorf("no window on %s:%d: %v", tc.wantFile, tc.wantLine, ws)
		})
	}
}
