package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// stubBugVerify stands in for `greenlight verify --json` on a copy with an
// injected bug: FAIL naming a test and a file:line when lib.go holds the
// bug, PASS otherwise. It also fails loudly if the original checkout was
// changed, which the script must never do.
const stubBugVerify = `#!/usr/bin/env bash
dir=${@: -1}
grep -q 'a + b' "$ORIGINAL/lib.go" || { echo "original checkout changed" >&2; exit 3; }
if grep -q 'a - b' "$dir/lib.go"; then
  echo '{"status":"FAIL","counts":{"failed":1,"total":4},"failures":[{"test":"example.TestAdd","file":"lib_test.go","line":7}]}'; exit 1
fi
echo '{"status":"PASS","counts":{"passed":4,"total":4}}'
`

// TestRealworldBugsScriptTable runs scripts/realworld-bugs.sh with a stub
// greenlight: an injected bug that the stub catches is a "yes" row naming
// the test and file:line, a bug that does not change the verdict is a "NO"
// row, a bug whose text is not on its line is NOT-APPLIED, and the checkout
// itself is left untouched.
func TestRealworldBugsScriptTable(t *testing.T) {
	for _, tool := range []string{"bash", "git", "jq", "timeout", "awk"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	corpus := t.TempDir()
	for _, name := range []string{"caught", "missed", "moved"} {
		dir := filepath.Join(corpus, name)
		gitRun(t, "", "git", "init", "-q", dir)
		src := "package example\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"
		if err := os.WriteFile(filepath.Join(dir, "lib.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stub := filepath.Join(t.TempDir(), "greenlight")
	if err := os.WriteFile(stub, []byte(stubBugVerify), 0o755); err != nil {
		t.Fatal(err)
	}
	bugs := filepath.Join(t.TempDir(), "bugs.txt")
	body := "# name | file | line | from | to\n" +
		"caught | lib.go | 4 | a + b | a - b\n" +
		"missed | lib.go | 4 | a + b | b + a\n" +
		"moved | lib.go | 3 | a + b | a - b\n"
	if err := os.WriteFile(bugs, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs(filepath.Join("..", "..", "scripts", "realworld-bugs.sh"))
	cmd := exec.Command("bash", script, corpus, bugs)
	cmd.Env = append(os.Environ(), "GREENLIGHT="+stub, "REALWORLD_TIMEOUT=30",
		"ORIGINAL="+filepath.Join(corpus, "caught"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("realworld-bugs.sh failed: %v\n%s", err, out)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Split(line, " | "); len(f) > 1 {
			rows[strings.TrimPrefix(f[0], "| ")] = line
		}
	}
	want := map[string]string{
		"caught": "| FAIL | `example.TestAdd` | lib_test.go:7 | 1/4 | yes |",
		"missed": "| PASS | `-` | - | 0/4 | NO |",
		"moved":  "| NOT-APPLIED | - | - | - | NO |",
	}
	for name, part := range want {
		if !strings.Contains(rows[name], part) {
			t.Errorf("row %s = %q, want it to contain %q\n%s", name, rows[name], part, out)
		}
	}
	for _, name := range []string{"caught", "missed", "moved"} {
		b, _ := os.ReadFile(filepath.Join(corpus, name, "lib.go"))
		if !strings.Contains(string(b), "a + b") {
			t.Errorf("%s: the checkout was changed: %s", name, b)
		}
	}
}
