package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// stubVerify stands in for `greenlight verify --json`: it prints a canned
// result chosen by the checkout's name (its last argument), so the test
// exercises the script's table and not the verification.
const stubVerify = `#!/usr/bin/env bash
dir=${@: -1}
case $(basename "$dir") in
green) echo '{"status":"PASS","summary":"PASS: ok","counts":{"passed":3,"skipped":1,"format":"go-json"},"steps":[{"name":"go-test","status":"OK"}]}' ;;
red) echo '{"status":"FAIL","summary":"FAIL: pytest (failed, exit 1)","counts":{"passed":1,"failed":2,"format":"pytest-junit","incomplete":true},"steps":[{"name":"compileall","status":"OK"},{"name":"pytest","status":"FAILED"}]}'; exit 1 ;;
*) echo "greenlight: boom" >&2; exit 2 ;;
esac
`

// TestRealworldScriptTable runs scripts/realworld.sh over a corpus of three
// checkouts with a stub greenlight: one row per checkout, the verdict and
// counts of its JSON result, the expected verdict of the corpus list and
// whether they match, the first failing step, and a row (not an abort) for a
// run that printed no JSON.
func TestRealworldScriptTable(t *testing.T) {
	for _, tool := range []string{"bash", "git", "jq", "timeout"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	corpus := t.TempDir()
	for _, name := range []string{"green", "red", "broken"} {
		dir := filepath.Join(corpus, name)
		gitRun(t, "", "git", "init", "-q", dir)
		gitRun(t, dir, "git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "init")
	}
	stub := filepath.Join(t.TempDir(), "greenlight")
	if err := os.WriteFile(stub, []byte(stubVerify), 0o755); err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(t.TempDir(), "corpus.txt")
	body := "# name | url | commit | command | expected\ngreen | u | c | go test ./... | PASS\nred | u | c | pytest | PASS\n"
	if err := os.WriteFile(list, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs(filepath.Join("..", "..", "scripts", "realworld.sh"))
	cmd := exec.Command("bash", script, corpus, list)
	cmd.Env = append(os.Environ(), "GREENLIGHT="+stub, "REALWORLD_TIMEOUT=30")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("realworld.sh failed: %v\n%s", err, out)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Split(line, " | "); len(f) > 1 {
			rows[strings.TrimPrefix(f[0], "| ")] = line
		}
	}
	want := map[string][]string{
		"green":  {"| PASS | PASS | yes | 3/0/1 go-json |", "| - | PASS: ok |"},
		"red":    {"| PASS | FAIL | NO | 1/2/0 pytest-junit INCOMPLETE |", "| pytest (FAILED) | FAIL: pytest (failed, exit 1) |"},
		"broken": {"| - | NO-JSON | - |", "exit 2: greenlight: boom"},
	}
	for name, parts := range want {
		for _, p := range parts {
			if !strings.Contains(rows[name], p) {
				t.Errorf("row %s = %q, want it to contain %q\n%s", name, rows[name], p, out)
			}
		}
	}
}

// gitRun runs a command in dir and fails the test on error.
func gitRun(t *testing.T, dir string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}
