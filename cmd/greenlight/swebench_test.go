package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/loop/eval"
)

// sweBase is the base tree of a SWE-bench-style instance: add() is wrong
// at zero, and the suite does not test it yet (the test patch does).
var sweBase = map[string]string{
	"pyproject.toml":     "[project]\nname = \"calc\"\nversion = \"0.1.0\"\n",
	"calc.py":            "def add(a, b):\n    if a == 0:\n        return 0\n    return a + b\n",
	"tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
}

const (
	sweTestPatch = "--- a/tests/test_calc.py\n+++ b/tests/test_calc.py\n@@ -3,3 +3,7 @@\n \n def test_add():\n     assert add(1, 2) == 3\n+\n+\n+def test_add_zero():\n+    assert add(0, 2) == 2\n"
	sweGold      = "--- a/calc.py\n+++ b/calc.py\n@@ -1,4 +1,2 @@\n def add(a, b):\n-    if a == 0:\n-        return 0\n     return a + b\n"
	// sweWrong fixes the zero case and breaks the passing test.
	sweWrong = "--- a/calc.py\n+++ b/calc.py\n@@ -1,4 +1,2 @@\n def add(a, b):\n-    if a == 0:\n-        return 0\n-    return a + b\n+    return b\n"
)

// TestEvalSWEBenchInstances grades SWE-bench instance records as
// swebench.harness does: the gold patch resolves the instance, a
// prediction that breaks a PASS_TO_PASS test does not, an empty
// prediction is an empty patch.
func TestEvalSWEBenchInstances(t *testing.T) {
	requireDocker(t)
	dir := t.TempDir()
	for _, id := range []string{"calc__calc-1", "calc__calc-2"} {
		for name, content := range sweBase {
			p := filepath.Join(dir, "trees", id, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var lines []string
	for _, id := range []string{"calc__calc-1", "calc__calc-2"} {
		rec, _ := json.Marshal(map[string]any{"instance_id": id, "repo": "calc/calc", "base_commit": "abc", "patch": sweGold,
			"test_patch": sweTestPatch, "FAIL_TO_PASS": `["tests/test_calc.py::test_add_zero"]`, "PASS_TO_PASS": []string{"tests/test_calc.py::test_add"}})
		lines = append(lines, string(rec))
	}
	instances := filepath.Join(dir, "instances.jsonl")
	writeFile(t, instances, strings.Join(lines, "\n")+"\n")
	u := newUser(t)

	gold := u.runIn(dir, "eval", "--swebench", instances, "--instances-root", filepath.Join(dir, "trees"), "--json")
	gold.wantExit(t, 0, "eval --swebench (gold)")
	var rep eval.SWEReport
	if err := json.Unmarshal([]byte(gold.stdout), &rep); err != nil {
		t.Fatalf("not a SWE-bench report: %v\n%s", err, gold.stdout)
	}
	if rep.TotalInstances != 2 || rep.ResolvedInstances != 2 || rep.PassAt1 != 1 || rep.SchemaVersion != 2 {
		t.Fatalf("gold: %d of %d resolved, pass@1 %g\n%s\n%s", rep.ResolvedInstances, rep.TotalInstances, rep.PassAt1, gold.stdout, gold.stderr)
	}
	st := rep.Instances["calc__calc-1"].TestsStatus
	if len(st["FAIL_TO_PASS"].Success) != 1 || len(st["PASS_TO_PASS"].Success) != 1 || len(st["FAIL_TO_PASS"].Failure) != 0 {
		t.Errorf("gold tests_status %+v", st)
	}

	preds := filepath.Join(dir, "preds.jsonl")
	writeFile(t, preds, `{"instance_id":"calc__calc-1","model_patch":`+quote(sweWrong)+`,"model_name_or_path":"wrong"}`+"\n"+
		`{"instance_id":"calc__calc-2","model_patch":"","model_name_or_path":"wrong"}`+"\n")
	wrong := u.runIn(dir, "eval", "--swebench", instances, "--instances-root", filepath.Join(dir, "trees"), "--predictions", preds, "--json")
	wrong.wantExit(t, 0, "eval --swebench --predictions")
	rep = eval.SWEReport{}
	if err := json.Unmarshal([]byte(wrong.stdout), &rep); err != nil {
		t.Fatalf("not a SWE-bench report: %v\n%s", err, wrong.stdout)
	}
	one := rep.Instances["calc__calc-1"]
	if rep.ResolvedInstances != 0 || rep.UnresolvedInstances != 1 || rep.EmptyPatchInstances != 1 || one.Resolved || !one.PatchSuccessfullyApplied {
		t.Fatalf("predictions: %+v\n%s", rep, wrong.stderr)
	}
	if f := one.TestsStatus["PASS_TO_PASS"].Failure; len(f) != 1 || f[0] != "tests/test_calc.py::test_add" {
		t.Errorf("the broken PASS_TO_PASS test is not named: %+v", one.TestsStatus)
	}

	bad := u.runIn(dir, "eval", "--swebench", instances, "--instances-root", filepath.Join(dir, "nowhere"))
	bad.wantExit(t, 2, "eval --swebench with missing base trees")
	if !strings.Contains(bad.stderr, "base tree") {
		t.Errorf("the error does not say what is missing: %s", bad.stderr)
	}
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
