package enginetest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/workspace"
)

// CalcFiles is a tiny Python project whose add() has a one-line bug.
var CalcFiles = map[string]string{
	"pyproject.toml": "[project]\nname = \"calc\"\nversion = \"0.1.0\"\n",
	"calc.py":        "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n",
	"tests/test_calc.py": "from calc import add, sub\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\n" +
		"def test_sub():\n    assert sub(5, 3) == 2\n",
}

// Patches for CalcFiles.
const (
	// FixPatch fixes add().
	FixPatch = "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"
	// BreakingPatch leaves add() broken and breaks sub().
	BreakingPatch = "--- a/calc.py\n+++ b/calc.py\n@@ -4,3 +4,3 @@\n \n def sub(a, b):\n-    return a - b\n+    return a * b\n"
	// NonApplyingPatch has context that is not in the file.
	NonApplyingPatch = "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(x, y):\n-    return x - y\n+    return x + y\n"
	// TestEditPatch "fixes" the failure by changing the test.
	TestEditPatch = "--- a/tests/test_calc.py\n+++ b/tests/test_calc.py\n@@ -4,2 +4,2 @@\n def test_add():\n-    assert add(1, 2) == 3\n+    assert add(1, 2) == -1\n"
	// SwapPatch fixes add() and breaks sub(): the failing count stays 1.
	SwapPatch = "--- a/calc.py\n+++ b/calc.py\n@@ -1,6 +1,6 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n \n \n def sub(a, b):\n-    return a - b\n+    return a + b\n"
)

// CalcSteps is the pipeline discovery plans for CalcFiles: compileall
// (build) and pytest, both tier0.
func CalcSteps() []*glv1.Step {
	return []*glv1.Step{
		{Name: "compileall", Phase: glv1.Phase_PHASE_BUILD, Command: "python3 -m compileall -q .", Tier: glv1.Tier_TIER_0, Level: glv1.Level_LEVEL_L3},
		{Name: "pytest", Phase: glv1.Phase_PHASE_TEST, Command: "python3 -m pytest -rA", Tier: glv1.Tier_TIER_0, Level: glv1.Level_LEVEL_L4},
	}
}

// Step returns a generic step: FAKE_EXIT, FAKE_SLEEP, FAKE_LOG and
// FAKE_CHUNKS (log chunks, default 2) in its env tell CalcJudge what it does.
func Step(name string, tier glv1.Tier, phase glv1.Phase, exit int, sleep time.Duration) *glv1.Step {
	return &glv1.Step{Name: name, Phase: phase, Tier: tier, Command: "run " + name,
		Env: map[string]string{"FAKE_EXIT": fmt.Sprint(exit), "FAKE_SLEEP": sleep.String()}}
}

// CalcJudge runs CalcFiles' tests by reading calc.py; other steps follow
// their FAKE_* env.
func CalcJudge(step *glv1.Step, files map[string]string) Outcome {
	env := step.GetEnv()
	sleep, _ := time.ParseDuration(env["FAKE_SLEEP"])
	if step.GetName() != "pytest" {
		var exit int
		fmt.Sscan(env["FAKE_EXIT"], &exit)
		log := env["FAKE_LOG"]
		if log == "" {
			log = fmt.Sprintf("%s: exit %d\n", step.GetName(), exit)
		}
		chunks := 2
		fmt.Sscan(env["FAKE_CHUNKS"], &chunks)
		return Outcome{Exit: exit, Log: log, Sleep: sleep, Chunks: chunks}
	}
	return pytest(files, sleep)
}

// calcTests are the project's tests: name, function, expression it
// expects, and the line of the assertion in tests/test_calc.py.
var calcTests = []struct {
	name, fn, want, call, expect string
	line                         int
}{
	{"test_add", "add", "a + b", "add(1, 2)", "3", 5},
	{"test_sub", "sub", "a - b", "sub(5, 3)", "2", 9},
}

// pytest renders pytest -rA output for the functions in calc.py.
func pytest(files map[string]string, sleep time.Duration) Outcome {
	ret := returns(files["calc.py"])
	var b, summary strings.Builder
	b.WriteString("============================= test session starts ==============================\n")
	fmt.Fprintf(&b, "collected %d items\n\ntests/test_calc.py ", len(calcTests))
	failed := 0
	var fails []string
	for _, t := range calcTests {
		ok := ret[t.fn] == t.want && files["tests/test_calc.py"] == CalcFiles["tests/test_calc.py"]
		if !ok && strings.Contains(files["tests/test_calc.py"], "== -1") && t.fn == "add" {
			ok = true // the test was weakened to match the bug
		}
		if ok {
			b.WriteString(".")
			fmt.Fprintf(&summary, "PASSED tests/test_calc.py::%s\n", t.name)
			continue
		}
		b.WriteString("F")
		failed++
		fails = append(fails, t.name)
		fmt.Fprintf(&summary, "FAILED tests/test_calc.py::%s - assert %s == %s\n", t.name, eval(ret[t.fn], t.call), t.expect)
	}
	b.WriteString("                                                    [100%]\n\n")
	if failed > 0 {
		b.WriteString("=================================== FAILURES ===================================\n")
		for _, t := range calcTests {
			if !containsStr(fails, t.name) {
				continue
			}
			fmt.Fprintf(&b, "___________________________________ %s ___________________________________\n\n", t.name)
			fmt.Fprintf(&b, "    def %s():\n>       assert %s == %s\nE       assert %s == %s\n\n", t.name, t.call, t.expect, eval(ret[t.fn], t.call), t.expect)
			fmt.Fprintf(&b, "tests/test_calc.py:%d: AssertionError\n", t.line)
		}
	}
	b.WriteString("=========================== short test summary info ============================\n")
	b.WriteString(summary.String())
	passed := len(calcTests) - failed
	switch {
	case failed == 0:
		fmt.Fprintf(&b, "============================== %d passed in 0.01s ===============================\n", passed)
	case passed == 0:
		fmt.Fprintf(&b, "============================== %d failed in 0.01s ===============================\n", failed)
	default:
		fmt.Fprintf(&b, "========================= %d failed, %d passed in 0.01s ==========================\n", failed, passed)
	}
	exit := 0
	if failed > 0 {
		exit = 1
	}
	return Outcome{Exit: exit, Log: b.String(), Sleep: sleep, Chunks: 3}
}

// returns maps each function of calc.py to its return expression.
func returns(src string) map[string]string {
	out := map[string]string{}
	fn := ""
	for _, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		if name, ok := strings.CutPrefix(t, "def "); ok {
			fn, _, _ = strings.Cut(name, "(")
		}
		if expr, ok := strings.CutPrefix(t, "return "); ok && fn != "" {
			out[fn] = expr
		}
	}
	return out
}

// eval computes a "a op b" expression for the call's arguments.
func eval(expr, call string) string {
	var a, b int
	_, args, _ := strings.Cut(call, "(")
	fmt.Sscanf(strings.TrimSuffix(args, ")"), "%d, %d", &a, &b)
	switch expr {
	case "a + b":
		return fmt.Sprint(a + b)
	case "a - b":
		return fmt.Sprint(a - b)
	case "a * b":
		return fmt.Sprint(a * b)
	}
	return "None"
}

func containsStr(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// WriteFiles writes files under dir.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Putter stores blobs.
type Putter interface {
	Put(ctx context.Context, r io.Reader) (blob.Digest, error)
}

// Snapshot packs files into a workspace tar, stores it and returns its digest.
func Snapshot(t testing.TB, blobs Putter, files map[string]string) *glv1.Digest {
	t.Helper()
	dir := t.TempDir()
	WriteFiles(t, dir, files)
	var buf bytes.Buffer
	if _, err := workspace.Pack(context.Background(), dir, &buf, workspace.PackOptions{NoGit: true}); err != nil {
		t.Fatalf("pack: %v", err)
	}
	d, err := blobs.Put(context.Background(), &buf)
	if err != nil {
		t.Fatalf("store snapshot: %v", err)
	}
	return d.Proto()
}
