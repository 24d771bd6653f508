package patch

import (
	"errors"
	"strings"
	"testing"
)

// guardFiles is the workspace the guardrail tests patch.
var guardFiles = tree{
	"src/app.py":             "def f():\n    return 1\n",
	"src/util.go":            "package src\n\nfunc U() int { return 1 }\n",
	"tests/test_app.py":      "from src.app import f\n\n\ndef test_f():\n    assert f() == 2\n",
	"pkg/x_test.go":          "package pkg\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {\n\tif 1 != 2 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n",
	"web/app.test.ts":        "it('works', () => {\n  expect(1).toBe(1)\n})\n",
	"package-lock.json":      "{}\n",
	"go.sum":                 "example.com/x v1.0.0 h1:abc=\n",
	"docs/readme.md":         "hello\n",
	"src/test/java/ATest.kt": "class ATest\n",
}

// edit returns a one-line change of path from old to new.
func edit(path, old, new string) string {
	return "--- a/" + path + "\n+++ b/" + path + "\n@@ -1 +1 @@\n-" + old + "\n+" + new + "\n"
}

// TestGuardrailRefusals checks every guardrail: each case asserts the
// rule and the reason, and applyErr asserts that the snapshot file is
// unchanged and nothing is left behind.
func TestGuardrailRefusals(t *testing.T) {
	big := "--- /dev/null\n+++ b/src/big.py\n@@ -0,0 +1,300 @@\n" + strings.Repeat("+x = 1\n", 300)
	cases := []struct {
		name  string
		reply string
		g     Guardrails
		rule  Rule
		path  string
		msg   string
	}{
		{"absolute path", "--- /dev/null\n+++ /etc/passwd\n@@ -0,0 +1 @@\n+root::0:0::/:/bin/sh\n", Guardrails{}, RulePath, "/etc/passwd", "absolute path"},
		{"dot-dot path", "*** Begin Patch\n*** Add File: ../outside.txt\n+x\n*** End Patch\n", Guardrails{}, RulePath, "../outside.txt", "'..'"},
		{"dot-dot inside path", "*** Begin Patch\n*** Add File: src/../../x\n+x\n*** End Patch\n", Guardrails{}, RulePath, "src/../../x", "'..'"},
		{"git metadata", "*** Begin Patch\n*** Add File: .git/hooks/pre-commit\n+#!/bin/sh\n*** End Patch\n", Guardrails{}, RulePath, ".git/hooks/pre-commit", ".git"},
		{"rename to outside", "*** Begin Patch\n*** Update File: src/app.py\n*** Move to: ../app.py\n*** End Patch\n", Guardrails{}, RulePath, "../app.py", "'..'"},
		{"outside allow-list", edit("docs/readme.md", "hello", "bye"), Guardrails{AllowedGlobs: []string{"src/**"}}, RuleAllowList, "docs/readme.md", "src/**"},
		{"rename out of allow-list", "*** Begin Patch\n*** Update File: src/app.py\n*** Move to: lib/app.py\n*** End Patch\n", Guardrails{AllowedGlobs: []string{"src"}}, RuleAllowList, "lib/app.py", "outside the paths"},
		{"symlink mode", "diff --git a/link b/link\nnew file mode 120000\n--- /dev/null\n+++ b/link\n@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n", Guardrails{}, RuleSymlink, "link", "symlinks"},
		{"submodule mode", "diff --git a/sub b/sub\nnew file mode 160000\n--- /dev/null\n+++ b/sub\n@@ -0,0 +1 @@\n+Subproject commit 1234\n", Guardrails{}, RuleMode, "sub", "160000"},
		{"git binary patch", "diff --git a/img.png b/img.png\nnew file mode 100644\nindex 0000000000000000000000000000000000000000..39e62dcbba379d119fb88454c51dace2bcbb79d6\nGIT binary patch\nliteral 5\nMcmYdfNMd9H00R^N#{d8T\n\nliteral 0\nHcmV?d00001\n\n", Guardrails{}, RuleBinary, "img.png", "binary"},
		{"binary files differ", "diff --git a/img.png b/img.png\nindex 1111111..2222222 100644\nBinary files a/img.png and b/img.png differ\n", Guardrails{}, RuleBinary, "img.png", "binary"},
		{"NUL byte", edit("src/app.py", "def f():", "def f():\x00"), Guardrails{}, RuleBinary, "", "NUL"},
		{"byte cap", edit("src/app.py", "def f():", "def f(): # "+strings.Repeat("x", 200)), Guardrails{MaxBytes: 100}, RuleSize, "", "over the limit of 100"},
		{"default byte cap", "--- /dev/null\n+++ b/src/big.py\n@@ -0,0 +1 @@\n+x = '" + strings.Repeat("x", 70<<10) + "'\n", Guardrails{}, RuleSize, "", "over the limit of 65536"},
		{"default changed-line cap", big, Guardrails{}, RuleChangedLines, "", "changes 300 lines, over the limit of 200"},
		{"changed-line cap", edit("src/app.py", "def f():", "def g():"), Guardrails{MaxChangedLines: 1}, RuleChangedLines, "", "changes 2 lines"},
		{"delete python test", "--- a/tests/test_app.py\n+++ /dev/null\n@@ -1,5 +0,0 @@\n-from src.app import f\n-\n-\n-def test_f():\n-    assert f() == 2\n", Guardrails{}, RuleTestDeletion, "tests/test_app.py", "may not be deleted"},
		{"delete go test", "*** Begin Patch\n*** Delete File: pkg/x_test.go\n*** End Patch\n", Guardrails{}, RuleTestDeletion, "pkg/x_test.go", "may not be deleted"},
		{"move test out", "*** Begin Patch\n*** Update File: web/app.test.ts\n*** Move to: web/app.ts\n*** End Patch\n", Guardrails{}, RuleTestDeletion, "web/app.test.ts", "moved out"},
		{"pytest skip marker", "*** Begin Patch\n*** Update File: tests/test_app.py\n@@\n+@pytest.mark.skip(reason='flaky')\n def test_f():\n*** End Patch\n", Guardrails{}, RuleTestSkip, "tests/test_app.py", "@pytest.mark.skip"},
		{"pytest.skip call", "*** Begin Patch\n*** Update File: tests/test_app.py\n@@\n def test_f():\n+    pytest.skip('later')\n*** End Patch\n", Guardrails{}, RuleTestSkip, "tests/test_app.py", "pytest.skip("},
		{"t.Skip", "*** Begin Patch\n*** Update File: pkg/x_test.go\n@@\n func TestX(t *testing.T) {\n+\tt.Skip(\"todo\")\n*** End Patch\n", Guardrails{}, RuleTestSkip, "pkg/x_test.go", "t.Skip("},
		{"it.skip", "*** Begin Patch\n*** Update File: web/app.test.ts\n@@\n-it('works', () => {\n+it.skip('works', () => {\n*** End Patch\n", Guardrails{}, RuleTestSkip, "web/app.test.ts", "it.skip"},
		{"describe.skip", "*** Begin Patch\n*** Update File: web/app.test.ts\n@@\n+describe.skip('all', () => {})\n it('works', () => {\n*** End Patch\n", Guardrails{}, RuleTestSkip, "web/app.test.ts", "describe.skip"},
		{"xit", "*** Begin Patch\n*** Update File: web/app.test.ts\n@@\n-it('works', () => {\n+xit('works', () => {\n*** End Patch\n", Guardrails{}, RuleTestSkip, "web/app.test.ts", "xit("},
		{"junit Disabled", "*** Begin Patch\n*** Update File: src/test/java/ATest.kt\n@@\n-class ATest\n+@Disabled class ATest\n*** End Patch\n", Guardrails{}, RuleTestSkip, "src/test/java/ATest.kt", "@Disabled"},
		{"rust ignore", "--- /dev/null\n+++ b/src/lib.rs\n@@ -0,0 +1,2 @@\n+#[ignore]\n+fn t() {}\n", Guardrails{}, RuleTestSkip, "src/lib.rs", "#[ignore]"},
		{"skip in a non-test file", edit("src/app.py", "def f():", "def f():  # pytest.skip('x')"), Guardrails{}, RuleTestSkip, "src/app.py", "pytest.skip("},
		{"remove assert", "*** Begin Patch\n*** Update File: tests/test_app.py\n@@\n def test_f():\n-    assert f() == 2\n+    f()\n*** End Patch\n", Guardrails{}, RuleTestWeakening, "tests/test_app.py", "removes 1 assertion"},
		{"remove expect", "*** Begin Patch\n*** Update File: web/app.test.ts\n@@\n-  expect(1).toBe(1)\n*** End Patch\n", Guardrails{}, RuleTestWeakening, "web/app.test.ts", "removes 1 assertion"},
		{"remove t.Fatal", "*** Begin Patch\n*** Update File: pkg/x_test.go\n@@\n-\t\tt.Fatal(\"no\")\n+\t\t_ = 0\n*** End Patch\n", Guardrails{}, RuleTestWeakening, "pkg/x_test.go", "removes 1 assertion"},
		{"edit expected value", "*** Begin Patch\n*** Update File: tests/test_app.py\n@@\n-    assert f() == 2\n+    assert f() == 1\n*** End Patch\n", Guardrails{}, RuleTestEdit, "tests/test_app.py", "may not be edited"},
		{"edit package-lock.json", edit("package-lock.json", "{}", `{"lockfileVersion": 3}`), Guardrails{}, RuleLockfile, "package-lock.json", "lockfiles"},
		{"edit go.sum", edit("go.sum", "example.com/x v1.0.0 h1:abc=", "example.com/x v1.0.0 h1:xyz="), Guardrails{}, RuleLockfile, "go.sum", "lockfiles"},
		{"add a nested yarn.lock", "--- /dev/null\n+++ b/web/yarn.lock\n@@ -0,0 +1 @@\n+# yarn\n", Guardrails{}, RuleLockfile, "web/yarn.lock", "lockfiles"},
		{"new Go test file with TestMain", "--- /dev/null\n+++ b/pkg/zz_main_test.go\n@@ -0,0 +1,3 @@\n+package pkg\n+\n+func TestMain(m *testing.M) { m.Run(); os.Exit(0) }\n", Guardrails{}, RuleTestAddition, "pkg/zz_main_test.go", "may not be added"},
		{"new pytest module", "--- /dev/null\n+++ b/test_zz.py\n@@ -0,0 +1 @@\n+pytest_plugins = ['evil']\n", Guardrails{}, RuleTestAddition, "test_zz.py", "the grader's"},
		{"new jest file", "--- /dev/null\n+++ b/src/zz.test.ts\n@@ -0,0 +1 @@\n+process.exitCode = 0\n", Guardrails{}, RuleTestAddition, "src/zz.test.ts", "may not be added"},
		{"new fixture", "--- /dev/null\n+++ b/pkg/testdata/golden.txt\n@@ -0,0 +1 @@\n+ok\n", Guardrails{}, RuleTestAddition, "pkg/testdata/golden.txt", "may not be added"},
		{"new helper under tests/", "--- /dev/null\n+++ b/tests/helpers.py\n@@ -0,0 +1 @@\n+X = 1\n", Guardrails{}, RuleTestAddition, "tests/helpers.py", "may not be added"},
		{"new snapshot", "--- /dev/null\n+++ web/__snapshots__/a.snap\n@@ -0,0 +1 @@\n+x\n", Guardrails{}, RuleTestAddition, "web/__snapshots__/a.snap", "may not be added"},
		{"rename a source file into the tests", "*** Begin Patch\n*** Update File: src/app.py\n*** Move to: tests/test_app2.py\n*** End Patch\n", Guardrails{}, RuleTestAddition, "tests/test_app2.py", "may not be added"},
		{"rename a test file within the tests", "*** Begin Patch\n*** Update File: tests/test_app.py\n*** Move to: tests/test_app_old.py\n*** End Patch\n", Guardrails{}, RuleTestEdit, "tests/test_app.py", "may not be edited"},
		{"edit a file the baseline collected tests from", edit("src/util.go", "return 1", "return 2"), Guardrails{TestPaths: []string{"src/util.go"}}, RuleTestEdit, "src/util.go", "may not be edited"},
		{"add a file the hidden tests own", "--- /dev/null\n+++ b/hidden_check.py\n@@ -0,0 +1 @@\n+x = 1\n", Guardrails{TestPaths: []string{"hidden_check.py"}}, RuleTestAddition, "hidden_check.py", "may not be added"},
		{"one path twice", edit("src/app.py", "def f():", "def g():") + edit("src/app.py", "def f():", "def h():"), Guardrails{}, RuleConflict, "src/app.py", "more than once"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := applyErr(t, guardFiles, c.reply, c.g)
			r := refusal(t, err, c.rule)
			if r.Path != c.path {
				t.Errorf("refusal path %q, want %q", r.Path, c.path)
			}
			if !strings.Contains(r.Reason, c.msg) {
				t.Errorf("reason %q does not say %q", r.Reason, c.msg)
			}
		})
	}
}

// TestGuardrailsAllow checks that the allow switches and globs admit what
// the defaults refuse, and that new test files are accepted by default.
func TestGuardrailsAllow(t *testing.T) {
	cases := []struct {
		name, reply string
		g           Guardrails
		path, want  string
	}{
		{"test edit allowed", edit("tests/test_app.py", "from src.app import f", "from src.app import f  # ok"),
			Guardrails{AllowTestChanges: true}, "tests/test_app.py", "from src.app import f  # ok\n\n\ndef test_f():\n    assert f() == 2\n"},
		{"lockfile allowed", edit("go.sum", "example.com/x v1.0.0 h1:abc=", "example.com/x v1.0.0 h1:xyz="),
			Guardrails{AllowLockfileEdits: true}, "go.sum", "example.com/x v1.0.0 h1:xyz=\n"},
		{"inside allow-list", edit("src/app.py", "def f():", "def g():"),
			Guardrails{AllowedGlobs: []string{"docs/*.md", "src/**/*.py"}}, "src/app.py", "def g():\n    return 1\n"},
		{"new test file when test changes are allowed", "--- /dev/null\n+++ b/tests/test_new.py\n@@ -0,0 +1,2 @@\n+def test_new():\n+    assert True\n",
			Guardrails{AllowTestChanges: true}, "tests/test_new.py", "def test_new():\n    assert True\n"},
		{"no caps", "--- /dev/null\n+++ b/src/big.py\n@@ -0,0 +1,300 @@\n" + strings.Repeat("+x = 1\n", 300),
			Guardrails{MaxChangedLines: -1, MaxBytes: -1}, "src/big.py", strings.Repeat("x = 1\n", 300)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _ := applyOK(t, guardFiles, c.reply, c.g)
			if got[c.path] != c.want {
				t.Errorf("%s = %q, want %q", c.path, got[c.path], c.want)
			}
		})
	}
}

// TestDeletionLineCapUsesRealSize checks that an envelope deletion, which
// carries no content, is measured on the real file when applied.
func TestDeletionLineCapUsesRealSize(t *testing.T) {
	files := tree{"big.txt": numbered(50)}
	err := applyErr(t, files, "*** Begin Patch\n*** Delete File: big.txt\n*** End Patch\n", Guardrails{MaxChangedLines: 10})
	r := refusal(t, err, RuleChangedLines)
	if !strings.Contains(r.Reason, "changes 50 lines") {
		t.Errorf("reason %q", r.Reason)
	}
}

// TestGuardrailsFromProto checks conversion, defaults and glob validation.
func TestGuardrailsFromProto(t *testing.T) {
	g, err := GuardrailsFromProto(nil)
	must(t, err)
	if p := g.Proto(); p.MaxBytes != DefaultMaxBytes || p.MaxChangedLines != DefaultMaxChangedLines || p.AllowTestChanges {
		t.Errorf("defaults %+v", p)
	}
	if _, err := GuardrailsFromProto(Guardrails{AllowedGlobs: []string{"src/[a"}}.Proto()); !errors.Is(err, ErrInvalidGuardrails) {
		t.Errorf("bad glob accepted: %v", err)
	}
}
