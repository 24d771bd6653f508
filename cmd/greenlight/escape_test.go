package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/termtext"
)

// noisyTest prints what hostile code under test would (a window title, a
// screen clear, a color, a carriage return over the verdict, a bidi
// override) and fails with a message of 300 wide characters.
const noisyTest = `import sys

def test_noisy():
    sys.stdout.write("\x1b]0;pwned-title\x07\x1b[2J\x1b[31mred\x1b[0m\rPASS \u202eevil\n")
    sys.stdout.flush()
    assert False, "\x1b[2J" + "测试" * 150
`

// TestVerifyCleansSandboxOutput runs the real embedded verify, with
// --logs, on a project whose test writes escape sequences: neither the
// live log lines nor the summary carry a control sequence, and the
// failure line is clipped by display width.
func TestVerifyCleansSandboxOutput(t *testing.T) {
	requireDocker(t)
	dir := t.TempDir()
	files := map[string]string{
		"pyproject.toml":      "[project]\nname = \"noisy\"\nversion = \"0.1.0\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n",
		"tests/test_noisy.py": noisyTest,
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := newUser(t).run(nil, "verify", "--logs", dir)
	r.wantExit(t, 1, "verify of a failing noisy project")
	out := r.stdout + r.stderr
	if !strings.Contains(out, "evil") || !strings.Contains(out, "测试") {
		t.Fatalf("the sandbox's output did not reach the CLI (the check below would prove nothing):\n%s", out)
	}
	// The captured line lost its title (OSC), clear and color sequences;
	// the carriage return became a line break.
	if !strings.Contains(out, "  | red\n  | PASS <U+202E>evil\n") {
		t.Errorf("captured output not cleaned as expected:\n%s", out)
	}
	for _, bad := range []string{"\x1b", "\x07", "\r", "\u202e"} {
		if strings.Contains(out, bad) {
			t.Errorf("verify output contains %q:\n%q", bad, out)
		}
	}
	inFailures := false
	for _, l := range strings.Split(r.stdout, "\n") {
		inFailures = inFailures || strings.HasPrefix(l, "Failures (")
		if inFailures && strings.Contains(l, "测试") && termtext.Width(l) > 300 {
			t.Errorf("failure line is %d cells wide, want its message clipped:\n%s", termtext.Width(l), l)
		}
	}
}
