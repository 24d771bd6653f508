package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/server/servertest"
)

// bin is the greenlight binary built once for all tests.
var bin string

func TestMain(m *testing.M) {
	b, cleanup, err := servertest.BuildForMain(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// The binary is run as an installed greenlight would be: named
	// greenlight in a directory on PATH, so that the hints it prints
	// ("greenlight show RUN") name it as a user would type it.
	if bin, err = onPath(b); err != nil {
		fmt.Fprintln(os.Stderr, err)
		cleanup()
		os.Exit(1)
	}
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// onPath links the built binary as greenlight into its own directory and
// puts that directory first on this process's PATH (inherited by every
// command the tests start).
func onPath(built string) (string, error) {
	dir := filepath.Dir(built)
	link := filepath.Join(dir, "greenlight")
	if err := os.Symlink(filepath.Base(built), link); err != nil {
		return "", fmt.Errorf("link the test binary as greenlight: %w", err)
	}
	return link, os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// examples is the bundled example projects' directory.
func examples(name string) string {
	p, _ := filepath.Abs(filepath.Join("..", "..", "examples", name))
	return p
}

// result is one finished invocation of the binary.
type result struct {
	code   int
	pid    int
	stdout string
	stderr string
}

// user runs the binary as a person would: its own data directory (home), no
// GREENLIGHT_ADDR from the outside, stdin from in (may be nil).
type user struct {
	t    *testing.T
	home string
	env  []string
}

func newUser(t *testing.T) *user {
	return &user{t: t, home: t.TempDir()}
}

func (c *user) environ() []string {
	env := []string{"GREENLIGHT_HOME=" + c.home, "HOME=" + c.home, "PATH=" + os.Getenv("PATH")}
	if h := os.Getenv("DOCKER_HOST"); h != "" {
		env = append(env, "DOCKER_HOST="+h)
	}
	return append(env, c.env...)
}

// run runs the binary to completion (bounded by a timeout).
func (c *user) run(stdin io.Reader, args ...string) result {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env, cmd.Stdin = c.environ(), stdin
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	res := result{stdout: out.String(), stderr: errOut.String(), code: -1}
	if cmd.ProcessState != nil {
		res.code, res.pid = cmd.ProcessState.ExitCode(), cmd.ProcessState.Pid()
	}
	if err != nil && cmd.ProcessState == nil {
		c.t.Fatalf("greenlight %s: %v", strings.Join(args, " "), err)
	}
	return res
}

// wantExit fails the test when the exit code is not want.
func (r result) wantExit(t *testing.T, want int, what string) {
	t.Helper()
	if r.code != want {
		t.Fatalf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", what, r.code, want, r.stdout, r.stderr)
	}
}

// wantOneLineError checks a failed invocation's stderr: exactly one line,
// "greenlight: ..." containing want.
func (r result) wantOneLineError(t *testing.T, want string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "greenlight: ") || !strings.Contains(lines[0], want) {
		t.Errorf("stderr must be one line \"greenlight: ...%s...\", got:\n%s", want, r.stderr)
	}
}

// copyDir copies a directory tree of regular files.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// requireDocker skips only when GREENLIGHT_INTEGRATION is unset; with it
// set, a missing engine fails the test.
func requireDocker(t *testing.T) {
	t.Helper()
	if os.Getenv("GREENLIGHT_INTEGRATION") == "" {
		t.Skip("integration test: set GREENLIGHT_INTEGRATION=1 (make test does) to run it against a real Docker engine")
	}
	out, err := exec.Command("docker", "version", "--format", "{{.Server.Version}}").CombinedOutput()
	if err != nil {
		t.Fatalf("GREENLIGHT_INTEGRATION is set but the Docker engine does not answer (run make engine): %v\n%s", err, out)
	}
}

// blobCount counts the blobs stored under home.
func blobCount(t *testing.T, home string) int {
	t.Helper()
	n := 0
	_ = filepath.WalkDir(filepath.Join(home, "blobs", "sha256"), func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}
