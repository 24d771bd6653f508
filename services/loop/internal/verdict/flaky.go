package verdict

import (
	"path"
	"strings"

	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// NeverFlaky returns the tests no re-run may excuse as flaky: a test in a
// file the change touched (changed, workspace paths) and a test a target
// id names (targets: FAIL_TO_PASS ids, matched as the transition package
// matches them: equal, a short Go name, a parent of subtests or
// parametrized cases). A change that makes its own tests pass only
// sometimes, or a target that passes only when re-run, is a failure.
func NeverFlaky(changed, targets []string) func(parse.Test) bool {
	files := map[string]bool{}
	for _, c := range changed {
		files[path.Clean(c)] = true
	}
	if len(files) == 0 && len(targets) == 0 {
		return nil
	}
	return func(t parse.Test) bool {
		for _, f := range append(TestIDFiles(t.ID), t.File) {
			if f != "" && (files[path.Clean(f)] || inChanged(files, f)) {
				return true
			}
		}
		for _, id := range targets {
			if namesTest(t.ID, id) {
				return true
			}
		}
		return false
	}
}

// inChanged reports whether a file path relative to a step's workdir
// ends one of the changed workspace paths ("tests/test_x.py" of a step
// in "svc" is "svc/tests/test_x.py").
func inChanged(files map[string]bool, f string) bool {
	f = path.Clean(f)
	for c := range files {
		if strings.HasSuffix(c, "/"+f) {
			return true
		}
	}
	return false
}

// namesTest reports whether target names the test id: equal, as its last
// component (Go's "pkg.TestX" named "TestX"), or as a parent of its
// subtests or parametrized cases.
func namesTest(id, target string) bool {
	if id == target {
		return true
	}
	for _, sep := range []string{".", "::", " > ", " › ", "/"} {
		if strings.HasSuffix(id, sep+target) {
			return true
		}
	}
	for _, sep := range []string{"/", "["} {
		p := target + sep
		if strings.HasPrefix(id, p) || strings.Contains(id, "."+p) || strings.Contains(id, "::"+p) {
			return true
		}
	}
	return false
}

// TestIDFiles returns the files a test id can name: pytest's
// "tests/test_x.py::test_y", a JavaScript runner's "src/a.test.js > suite >
// case", and unittest's dotted "tests.test_x.Case.test_y" (every module
// prefix as a .py path; a caller keeps the one that exists).
func TestIDFiles(id string) []string {
	if file, _, ok := strings.Cut(id, "::"); ok {
		return []string{file}
	}
	if file, _, ok := strings.Cut(id, " > "); ok {
		return []string{file}
	}
	if strings.ContainsAny(id, "/ ") || !strings.Contains(id, ".") {
		return nil
	}
	parts := strings.Split(id, ".")
	var out []string
	for i := 1; i < len(parts); i++ {
		out = append(out, strings.Join(parts[:i], "/")+".py")
	}
	return out
}
