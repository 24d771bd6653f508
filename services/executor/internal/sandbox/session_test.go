package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
)

// localRuntime runs "execs" as local processes: the real greenlight-runner
// binary, built for the test, serving a session without any engine. Only
// Exec is implemented.
type localRuntime struct {
	Runtime
	bin string
}

func (l localRuntime) Exec(ctx context.Context, _ string, spec ExecSpec) (int, error) {
	cmd := exec.CommandContext(ctx, l.bin, spec.Cmd[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = spec.Stdin, spec.Stdout, spec.Stderr
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if a, ok := spec.Stdin.(StdinAborter); ok {
		a.AbortStdin()
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), nil
	}
	return 0, err
}

// buildRunner builds cmd/greenlight-runner once per test binary.
func buildRunner(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "greenlight-runner")
	cmd := exec.Command("go", "build", "-o", bin, "../../cmd/greenlight-runner")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// testUser is who the session's processes run as: the sandbox user when
// the tests run as root, else the current user.
func testUser() string {
	if os.Geteuid() == 0 {
		return SandboxUser
	}
	return fmt.Sprintf("%d:%d", os.Geteuid(), os.Getegid())
}

func newTestSession(t *testing.T, bin string) *session {
	t.Helper()
	s, err := startSession(context.Background(), localRuntime{bin: bin}, "local")
	if err != nil {
		t.Fatalf("startSession: %v", err)
	}
	t.Cleanup(func() {
		s.close()
		s.wait(5 * time.Second)
	})
	return s
}

// The session's edge cases, against the real runner: what Exec callers
// rely on when things go wrong.
func TestSessionEdgeCases(t *testing.T) {
	bin := buildRunner(t)
	sh := func(script string) ExecSpec {
		return ExecSpec{Cmd: []string{"/bin/sh", "-c", script}, User: testUser(), WorkDir: "/"}
	}

	t.Run("output and status", func(t *testing.T) {
		s := newTestSession(t, bin)
		var out, errOut bytes.Buffer
		spec := sh("echo out; echo err >&2; exit 3")
		spec.Stdout, spec.Stderr = &out, &errOut
		res, err := s.exec(context.Background(), spec)
		if err != nil || res.code != 3 || out.String() != "out\n" || errOut.String() != "err\n" {
			t.Errorf("exec = %+v, %v; stdout %q stderr %q", res, err, out.String(), errOut.String())
		}
	})

	t.Run("context ends", func(t *testing.T) {
		s := newTestSession(t, bin)
		var out bytes.Buffer
		spec := sh("echo started; sleep 100")
		spec.Stdout = &out
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := s.exec(ctx, spec)
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second || out.String() != "started\n" {
			t.Errorf("exec = %v after %s, output %q", err, time.Since(start), out.String())
		}
		// The session goes on.
		if res, err := s.exec(context.Background(), sh("true")); err != nil || res.code != 0 {
			t.Errorf("next exec = %+v, %v", res, err)
		}
	})

	t.Run("input fails", func(t *testing.T) {
		s := newTestSession(t, bin)
		bad := errors.New("entry ../x is outside the workspace")
		spec := sh("cat > /dev/null; echo got-all")
		var out bytes.Buffer
		spec.Stdout = &out
		spec.Stdin = io.MultiReader(strings.NewReader(strings.Repeat("x", 100<<10)), &failingReader{err: bad})
		_, err := s.exec(context.Background(), spec)
		if !errors.Is(err, bad) || !strings.HasPrefix(err.Error(), "exec stdin: ") || strings.Contains(out.String(), "got-all") {
			t.Errorf("exec = %v, output %q: a broken input must not look complete", err, out.String())
		}
	})

	t.Run("input streams", func(t *testing.T) {
		s := newTestSession(t, bin)
		spec := sh("wc -c")
		var out bytes.Buffer
		spec.Stdout, spec.Stdin = &out, strings.NewReader(strings.Repeat("y", 1<<20))
		if res, err := s.exec(context.Background(), spec); err != nil || res.code != 0 || strings.TrimSpace(out.String()) != "1048576" {
			t.Errorf("exec = %+v, %v, output %q", res, err, out.String())
		}
	})

	t.Run("output reader gives up", func(t *testing.T) {
		s := newTestSession(t, bin)
		pr, pw := io.Pipe()
		_ = pr.CloseWithError(errors.New("enough"))
		spec := sh("yes")
		spec.Stdout = pw
		start := time.Now()
		_, err := s.exec(context.Background(), spec)
		if err == nil || !strings.HasPrefix(err.Error(), "exec output: ") || time.Since(start) > 5*time.Second {
			t.Errorf("exec = %v after %s", err, time.Since(start))
		}
	})

	t.Run("start fails", func(t *testing.T) {
		s := newTestSession(t, bin)
		var errOut bytes.Buffer
		spec := sh("true")
		spec.WorkDir, spec.Stderr = "/does/not/exist", &errOut
		res, err := s.exec(context.Background(), spec)
		if err != nil || res.code != startFailedCode || !strings.HasPrefix(errOut.String(), "greenlight-runner: ") {
			t.Errorf("exec = %+v, %v, stderr %q", res, err, errOut.String())
		}
	})

	t.Run("runner ends", func(t *testing.T) {
		s := newTestSession(t, bin)
		done := make(chan error, 1)
		go func() {
			_, err := s.exec(context.Background(), sh("sleep 100"))
			done <- err
		}()
		time.Sleep(200 * time.Millisecond)
		s.close()
		select {
		case err := <-done:
			if !errors.Is(err, errRunnerEnded) {
				t.Errorf("exec = %v, want errRunnerEnded", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("exec still waits after the session ended")
		}
		if _, err := s.exec(context.Background(), sh("true")); !errors.Is(err, errRunnerEnded) {
			t.Errorf("exec on an ended session = %v", err)
		}
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
			t.Error("the runner's exec did not end")
		}
	})
}

// A runner that speaks another protocol is refused at the hello.
func TestSessionRefusesAnotherProtocol(t *testing.T) {
	rt := fakeHelloRuntime{hello: runnerproto.AppendFrame(nil, runnerproto.KindHello, 0, []byte(`{"protocol":999,"pid":1}`))}
	_, err := startSession(context.Background(), rt, "x")
	if !errors.Is(err, errRunnerEnded) || !strings.Contains(err.Error(), "another protocol") {
		t.Fatalf("startSession = %v", err)
	}
}

// fakeHelloRuntime's Exec prints hello and waits for the end of its input.
type fakeHelloRuntime struct {
	Runtime
	hello []byte
}

func (f fakeHelloRuntime) Exec(ctx context.Context, _ string, spec ExecSpec) (int, error) {
	_, _ = spec.Stdout.Write(f.hello)
	_, _ = io.Copy(io.Discard, spec.Stdin)
	return 0, nil
}

type failingReader struct{ err error }

func (f *failingReader) Read([]byte) (int, error) { return 0, f.err }
