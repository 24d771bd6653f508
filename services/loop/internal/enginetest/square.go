package enginetest

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// SquareFiles is a tiny Python project whose f(x) should be x*x: its only
// (visible) test checks f(2) == 4, which f(x) = x + 1 fails.
var SquareFiles = map[string]string{
	"pyproject.toml":   "[project]\nname = \"sq\"\nversion = \"0.1.0\"\n",
	"sq.py":            "def f(x):\n    return x + 1\n",
	"tests/test_sq.py": "from sq import f\n\n\ndef test_two():\n    assert f(2) == 4\n",
}

// Diffs for SquareFiles.
const (
	// SquareHidden is the caller's hidden test: f(3) == 9.
	SquareHidden = "--- /dev/null\n+++ b/tests/test_sq_hidden.py\n@@ -0,0 +1,5 @@\n+from sq import f\n+\n+\n+def test_three():\n+    assert f(3) == 9\n"
	// SquareHardCode passes the visible test only: it hard-codes f(2).
	SquareHardCode = "--- a/sq.py\n+++ b/sq.py\n@@ -1,2 +1,4 @@\n def f(x):\n+    if x == 2:\n+        return 4\n     return x + 1\n"
	// SquareHonest fixes f for every input.
	SquareHonest = "--- a/sq.py\n+++ b/sq.py\n@@ -1,2 +1,2 @@\n def f(x):\n-    return x + 1\n+    return x * x\n"
)

// SquareHiddenWords are what a patch request of a run with SquareHidden
// must never hold: its path, its test's name, its assertion.
var SquareHiddenWords = []string{"test_sq_hidden", "test_three", "f(3)", "== 9"}

var (
	squareTest = regexp.MustCompile(`def (test_\w+)\(\):\n\s+assert f\((\d+)\) == (\d+)`)
	squareIf   = regexp.MustCompile(`if x == (\d+):\n\s+return (\d+)`)
)

// squareF evaluates sq.py's f.
func squareF(src string, x int) string {
	for _, m := range squareIf.FindAllStringSubmatch(src, -1) {
		if k, _ := strconv.Atoi(m[1]); k == x {
			return m[2]
		}
	}
	switch {
	case strings.Contains(src, "return x * x"):
		return strconv.Itoa(x * x)
	case strings.Contains(src, "return x + 1"):
		return strconv.Itoa(x + 1)
	}
	return "None"
}

// SquareJudge runs SquareFiles' tests as pytest -rA would print them:
// every tests/test_*.py (unless a conftest.py names it, as a
// collect_ignore does) for every step named pytest* (a probe or re-run
// runs them all: the narrowing is ignored); other steps pass.
func SquareJudge(step *glv1.Step, files map[string]string) Outcome {
	if !strings.HasPrefix(step.GetName(), "pytest") {
		return Outcome{Log: step.GetName() + ": ok\n"}
	}
	var names []string
	for name := range files {
		if strings.HasPrefix(name, "tests/test_") && strings.HasSuffix(name, ".py") && !strings.Contains(files["conftest.py"], strconv.Quote(name)) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	type result struct{ file, name, got, want string }
	var all []result
	for _, file := range names {
		for _, m := range squareTest.FindAllStringSubmatch(files[file], -1) {
			x, _ := strconv.Atoi(m[2])
			all = append(all, result{file, m[1], squareF(files["sq.py"], x), m[3]})
		}
	}
	var b, failures, summary strings.Builder
	fmt.Fprintf(&b, "============================= test session starts ==============================\ncollected %d items\n\n", len(all))
	failed := 0
	for _, r := range all {
		if r.got == r.want {
			fmt.Fprintf(&summary, "PASSED %s::%s\n", r.file, r.name)
			continue
		}
		failed++
		fmt.Fprintf(&failures, "___________________________________ %s ___________________________________\n\n", r.name)
		fmt.Fprintf(&failures, "    def %s():\n>       assert f(...) == %s\nE       assert %s == %s\n\n%s:5: AssertionError\n", r.name, r.want, r.got, r.want, r.file)
		fmt.Fprintf(&summary, "FAILED %s::%s - assert %s == %s\n", r.file, r.name, r.got, r.want)
	}
	if failed > 0 {
		b.WriteString("=================================== FAILURES ===================================\n" + failures.String())
	}
	b.WriteString("=========================== short test summary info ============================\n" + summary.String())
	passed := len(all) - failed
	switch {
	case failed == 0:
		fmt.Fprintf(&b, "============================== %d passed in 0.01s ===============================\n", passed)
	case passed == 0:
		fmt.Fprintf(&b, "============================== %d failed in 0.01s ===============================\n", failed)
	default:
		fmt.Fprintf(&b, "========================= %d failed, %d passed in 0.01s ==========================\n", failed, passed)
	}
	return Outcome{Exit: min(failed, 1), Log: b.String(), Chunks: 2}
}
