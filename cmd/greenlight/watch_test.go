package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// verify --watch against the embedded stack and a real engine: the first
// run PASSes, a change that breaks the code starts a second run that
// FAILs, a change the pack leaves out (node_modules) and a mode-only
// change start none, and Ctrl-C ends the watch with exit 130.
func TestVerifyWatchVerifiesAgainOnChange(t *testing.T) {
	requireDocker(t)
	u := newUser(t)
	ws := filepath.Join(t.TempDir(), "ws")
	copyDir(t, examples("pass"), ws)

	cmd := exec.Command(bin, "verify", "-q", "--watch", "--watch-quiet", "200ms", ws)
	cmd.Env = u.environ()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	lines := make(chan string, 256)
	var log strings.Builder
	go scanLines(stdout, "out: ", lines)
	go scanLines(stderr, "err: ", lines)
	deadline := time.After(5 * time.Minute)
	// waitFor reads lines until each of wants was in one. Stdout and
	// stderr are read by two goroutines, so a stdout line and a stderr
	// line written one after the other may arrive in either order.
	waitFor := func(wants ...string) {
		t.Helper()
		left := slices.Clone(wants)
		for len(left) > 0 {
			select {
			case l := <-lines:
				log.WriteString(l + "\n")
				left = slices.DeleteFunc(left, func(w string) bool { return strings.Contains(l, w) })
			case <-deadline:
				t.Fatalf("no line with %q; so far:\n%s", left, log.String())
			}
		}
	}
	waitFor("out:  PASS ", "err: greenlight: watching")
	// Changes a pack leaves out, then the one that counts: the batch of
	// the last names only it.
	if err := os.MkdirAll(filepath.Join(ws, "node_modules", "dep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "node_modules", "dep", "index.js"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(ws, "pyproject.toml"), 0o600); err != nil {
		t.Fatal(err)
	}
	broken, err := os.ReadFile(filepath.Join(examples("fail"), "temperature", "__init__.py"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "temperature", "__init__.py"), broken, 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor("err: greenlight: changed: temperature/__init__.py")
	waitFor("err: greenlight: run 2 of the watch")
	waitFor("out:  FAIL ", "err: greenlight: watching")
	for _, l := range strings.Split(log.String(), "\n") {
		if strings.Contains(l, "changed:") && l != "err: greenlight: changed: temperature/__init__.py" || strings.Contains(l, "packs as before") {
			t.Errorf("a change the pack leaves out, or a mode-only one, was reported: %q\n%s", l, log.String())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if got := cmd.ProcessState.ExitCode(); got != 130 {
		t.Errorf("exit %d after Ctrl-C, want 130; output:\n%s", got, log.String())
	}
}

// scanLines sends each line of r, prefixed, to lines.
func scanLines(r io.Reader, prefix string, lines chan<- string) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		lines <- prefix + sc.Text()
	}
}
