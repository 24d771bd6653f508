package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// squareWS is a workspace whose f(x) should be x*x; its visible test
// checks f(2) only.
var squareWS = map[string]string{
	"pyproject.toml":   "[project]\nname = \"sq\"\nversion = \"0.1.0\"\n",
	"sq.py":            "def f(x):\n    return x + 1\n",
	"tests/test_sq.py": "from sq import f\n\n\ndef test_two():\n    assert f(2) == 4\n",
}

const (
	squareHiddenTest = "from sq import f\n\n\ndef test_three():\n    assert f(3) == 9\n"
	squareHardCode   = "--- a/sq.py\n+++ b/sq.py\n@@ -1,2 +1,4 @@\n def f(x):\n+    if x == 2:\n+        return 4\n     return x + 1\n"
	squareHonest     = "--- a/sq.py\n+++ b/sq.py\n@@ -1,2 +1,2 @@\n def f(x):\n-    return x + 1\n+    return x * x\n"
)

// writeFiles writes files (slash paths) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, p, content)
	}
}

// squareSetup writes the workspace, the hidden tests as a directory and
// as a diff, and a provider command answering patch (recording each
// request under reqs) outside it.
func squareSetup(t *testing.T, patch string) (ws, hiddenDir, hiddenPatch, command, reqs string) {
	t.Helper()
	tmp := t.TempDir()
	ws, hiddenDir, reqs = filepath.Join(tmp, "ws"), filepath.Join(tmp, "hidden"), filepath.Join(tmp, "reqs")
	writeFiles(t, ws, squareWS)
	writeFiles(t, hiddenDir, map[string]string{"tests/test_sq_hidden.py": squareHiddenTest})
	hiddenPatch = filepath.Join(tmp, "hidden.patch")
	writeFile(t, hiddenPatch, "--- /dev/null\n+++ b/tests/test_sq_hidden.py\n@@ -0,0 +1,5 @@\n+"+
		strings.ReplaceAll(strings.TrimSuffix(squareHiddenTest, "\n"), "\n", "\n+")+"\n")
	writeFile(t, filepath.Join(tmp, "fix.patch"), patch)
	if err := os.MkdirAll(reqs, 0o755); err != nil {
		t.Fatal(err)
	}
	command = "cat > " + reqs + "/request-$$.json; cat " + filepath.Join(tmp, "fix.patch")
	return ws, hiddenDir, hiddenPatch, command, reqs
}

// requireNoHiddenInRequests fails when a recorded patch request holds
// anything of the hidden test.
func requireNoHiddenInRequests(t *testing.T, reqs string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(reqs, "request-*.json"))
	if len(files) == 0 {
		t.Fatal("the provider got no request")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"test_sq_hidden", "test_three", "f(3)", "== 9"} {
			if strings.Contains(string(b), w) {
				t.Errorf("a patch request holds %q of the hidden tests:\n%s", w, b)
			}
		}
	}
}

// fix --hidden-tests DIR and PATCH: a hard-coding patch that passes the
// visible test is not green with the hidden tests (exit 1, the summary
// counts the failing hidden test), the honest patch is (exit 0), and the
// model's requests never see the hidden tests.
func TestFixHiddenTests(t *testing.T) {
	requireDocker(t)
	for _, c := range []struct {
		name   string
		patch  string
		asDir  bool
		exit   int
		hidden string
	}{
		{"hard-coding, hidden tests as a directory", squareHardCode, true, 1, "0 hidden test(s) passed, 1 failed"},
		{"hard-coding, hidden tests as a diff", squareHardCode, false, 1, "0 hidden test(s) passed, 1 failed"},
		{"honest, hidden tests as a directory", squareHonest, true, 0, "1 hidden test(s) passed, 0 failed"},
		{"honest, hidden tests as a diff", squareHonest, false, 0, "1 hidden test(s) passed, 0 failed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ws, dir, diff, command, reqs := squareSetup(t, c.patch)
			hidden := diff
			if c.asDir {
				hidden = dir
			}
			u := newUser(t)
			r := u.run(nil, "fix", "-q", "--provider", "command", "--command", command, "--max-rounds", "1", "--hidden-tests", hidden, ws)
			r.wantExit(t, c.exit, "fix --hidden-tests")
			if !strings.Contains(r.stdout, c.hidden) {
				t.Errorf("the summary does not say %q:\n%s", c.hidden, r.stdout)
			}
			requireNoHiddenInRequests(t, reqs)
			if _, err := os.Stat(filepath.Join(ws, "tests", "test_sq_hidden.py")); err == nil {
				t.Error("the hidden test was written into the workspace")
			}
		})
	}
	// Without hidden tests the hard-coding patch is green: the hole the
	// hidden tests close.
	ws, _, _, command, _ := squareSetup(t, squareHardCode)
	r := newUser(t).run(nil, "fix", "-q", "--provider", "command", "--command", command, "--max-rounds", "1", ws)
	r.wantExit(t, 0, "fix without hidden tests")
}

// Hidden tests that cannot be used exit 2 with one line saying why: a
// diff that does not apply to the workspace (the loop's InvalidArgument),
// hidden tests inside the workspace, a missing path, targets without
// tests.
func TestFixHiddenTestsBadInput(t *testing.T) {
	ws, _, _, command, _ := squareSetup(t, squareHonest)
	bad := filepath.Join(t.TempDir(), "bad.patch")
	writeFile(t, bad, "--- a/tests/test_sq.py\n+++ b/tests/test_sq.py\n@@ -1,2 +1,2 @@\n-from sq import g\n+from sq import f\n \n")
	inside := filepath.Join(ws, "hidden")
	writeFiles(t, inside, map[string]string{"tests/test_sq_hidden.py": squareHiddenTest})
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"a diff that does not apply", []string{"--hidden-tests", bad}, "does not apply to the snapshot"},
		{"hidden tests inside the workspace", []string{"--hidden-tests", inside}, "inside the workspace"},
		{"a missing path", []string{"--hidden-tests", filepath.Join(t.TempDir(), "nope")}, "no such file or directory"},
		{"targets without tests", []string{"--hidden-target", "test_three"}, "--hidden-tests PATCH|DIR"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "a diff that does not apply" {
				requireDocker(t)
			}
			args := append([]string{"fix", "-q", "--provider", "command", "--command", command}, c.args...)
			r := newUser(t).run(nil, append(args, ws)...)
			r.wantExit(t, 2, strings.Join(c.args, " "))
			r.wantOneLineError(t, c.want)
		})
	}
}
