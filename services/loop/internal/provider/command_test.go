package provider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestMain lets the test binary double as the patch program the command
// provider runs: a real Go program that parses the request JSON.
func TestMain(m *testing.M) {
	if os.Getenv("GREENLIGHT_TEST_PATCH_PROGRAM") == "1" {
		os.Exit(patchProgram())
	}
	os.Exit(m.Run())
}

// patchProgram reads a PatchRequest as JSON on stdin and prints a patch
// for the file of its first code window, naming the failing command.
func patchProgram() int {
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		return 2
	}
	var req glv1.PatchRequest
	if err := protojson.Unmarshal(in, &req); err != nil {
		fmt.Fprintln(os.Stderr, "bad request JSON:", err)
		return 3
	}
	w := req.GetWindows()[0]
	fmt.Printf("Fix for `%s` (attempt %d):\n<patch>\n--- a/%s\n+++ b/%s\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n</patch>\n",
		req.GetFailingCommand(), req.GetAttempt(), w.GetFile(), w.GetFile())
	return 0
}

// TestCommandProvider runs real programs through /bin/sh.
func TestCommandProvider(t *testing.T) {
	self, err := os.Executable()
	must(t, err)
	t.Setenv("GREENLIGHT_TEST_PATCH_PROGRAM", "") // only the child gets it
	cases := []struct {
		name, command string
		timeout       time.Duration
		wantPatch     []string
		giveUp        bool
		err           string
	}{
		{name: "go program parses the JSON", command: "GREENLIGHT_TEST_PATCH_PROGRAM=1 " + strconv.Quote(self),
			wantPatch: []string{"Fix for `python -m pytest -q tests/test_calc.py` (attempt 1)", "--- a/calc.py", "+    return a + b"}},
		{name: "shell reads JSON fields", command: `read -r json; case "$json" in *'"failingCommand":"python -m pytest -q tests/test_calc.py"'*) printf '%s\n' '--- a/calc.py' ;; *) echo "unexpected: $json" >&2; exit 9 ;; esac`,
			wantPatch: []string{"--- a/calc.py"}},
		{name: "empty output gives up", command: "cat >/dev/null", giveUp: true},
		{name: "blank output gives up", command: "cat >/dev/null; printf '\\n  \\n'", giveUp: true},
		{name: "non-zero exit quotes stderr", command: "cat >/dev/null; echo 'model unavailable: quota' >&2; exit 7",
			err: "exited with status 7: stderr: model unavailable: quota"},
		{name: "timeout kills", command: "sleep 30", timeout: 300 * time.Millisecond, err: "timed out after 300ms and was killed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := NewCommand(CommandConfig{Command: c.command, Timeout: c.timeout})
			must(t, err)
			start := time.Now()
			got, err := p.Propose(context.Background(), request(1))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || !errors.Is(err, ErrUpstream) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				if time.Since(start) > 10*time.Second {
					t.Errorf("took %s", time.Since(start))
				}
				return
			}
			must(t, err)
			if got.GiveUp != c.giveUp {
				t.Errorf("give up %v, want %v", got.GiveUp, c.giveUp)
			}
			for _, w := range c.wantPatch {
				if !strings.Contains(got.Patch, w) {
					t.Errorf("patch lacks %q:\n%s", w, got.Patch)
				}
			}
		})
	}
}

// TestCommandTimeoutKillsProcessGroup checks that a program's background
// children die with it at the timeout.
func TestCommandTimeoutKillsProcessGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	p, err := NewCommand(CommandConfig{Command: "sleep 60 & echo $! > " + pidFile + "; wait", Timeout: 300 * time.Millisecond})
	must(t, err)
	start := time.Now()
	_, err = p.Propose(context.Background(), request(1))
	if err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("error %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("took %s to return", time.Since(start))
	}
	b, err := os.ReadFile(pidFile)
	must(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	must(t, err)
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("background child %d survived the timeout", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestCommandCancel checks that ctx cancellation ends the program.
func TestCommandCancel(t *testing.T) {
	p, err := NewCommand(CommandConfig{Command: "sleep 30"})
	must(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := p.Propose(ctx, request(1)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v", err)
	}
}
