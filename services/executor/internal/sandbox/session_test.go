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
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
)

// localRuntime runs the "container's main process" as a local process:
// the real greenlight-runner binary, built for the test, serving a session
// without any engine. Attach starts it; State reports it.
type localRuntime struct {
	Runtime
	bin  string
	args []string
	proc *localProc
}

// localProc is the runner process of a localRuntime.
type localProc struct {
	cmd  *exec.Cmd
	done chan struct{}
}

func (l *localRuntime) Attach(_ context.Context, _ string, stderr io.Writer) (io.ReadWriteCloser, error) {
	cmd := exec.Command(l.bin, append([]string{"serve"}, l.args...)...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	l.proc = &localProc{cmd: cmd, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(l.proc.done)
	}()
	return localConn{Reader: out, WriteCloser: in}, nil
}

func (l *localRuntime) State(context.Context, string) (ContainerState, error) {
	select {
	case <-l.proc.done:
		// As docker-init reports its child's end: 128+N for signal N.
		code := l.proc.cmd.ProcessState.ExitCode()
		if ws, ok := l.proc.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
		return ContainerState{ExitCode: code}, nil
	default:
		return ContainerState{Running: true}, nil
	}
}

// localConn is a local runner's stdout and stdin.
type localConn struct {
	io.Reader
	io.WriteCloser
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

func newTestSession(t *testing.T, bin string, args ...string) *session {
	t.Helper()
	s, err := openSession(context.Background(), &localRuntime{bin: bin, args: args}, "local")
	if err == nil {
		err = s.ready(context.Background())
	}
	if err != nil {
		t.Fatalf("starting a session: %v", err)
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

// The session learns how its runner, the container's main process, ended:
// at its lifetime (exit 0: the sandbox's deadline), or killed by SIGKILL
// (what the OOM killer does), which sigkilled records for the OOM checks.
func TestSessionRunnerEnds(t *testing.T) {
	bin := buildRunner(t)
	sh := func(script string) ExecSpec {
		return ExecSpec{Cmd: []string{"/bin/sh", "-c", script}, User: testUser(), WorkDir: "/"}
	}
	cases := []struct {
		name         string
		args         []string
		end          func(s *session)
		wantCode     string
		wantSIGKILLd bool
	}{
		{"lifetime passes", []string{"1"}, func(*session) {}, "exited with code 0", false},
		{"killed", nil, func(s *session) {
			rt := s.rt.(*localRuntime)
			_ = rt.proc.cmd.Process.Kill()
		}, "exited with code 137", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestSession(t, bin, tc.args...)
			done := make(chan error, 1)
			go func() {
				_, err := s.exec(context.Background(), sh("sleep 100"))
				done <- err
			}()
			time.Sleep(200 * time.Millisecond)
			tc.end(s)
			select {
			case err := <-done:
				// At its lifetime the runner kills and reports the
				// process before it exits; killed, it reports nothing.
				if err != nil && !errors.Is(err, errRunnerEnded) {
					t.Errorf("exec = %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("exec still waits after the runner ended")
			}
			select {
			case <-s.done:
			case <-time.After(10 * time.Second):
				t.Fatal("the session did not end with its runner")
			}
			if err := s.endErr(); !strings.Contains(err.Error(), tc.wantCode) {
				t.Errorf("the session ended with %v, want it to say %q", err, tc.wantCode)
			}
			if got := s.sigkilled.Load(); got != tc.wantSIGKILLd {
				t.Errorf("sigkilled = %v, want %v", got, tc.wantSIGKILLd)
			}
		})
	}
}

// A runner that speaks another protocol is refused at the hello, and its
// attachment is closed (which stops its container).
func TestSessionRefusesAnotherProtocol(t *testing.T) {
	conn := &fakeConn{closed: make(chan struct{})}
	hello := bytes.NewReader(runnerproto.AppendFrame(nil, runnerproto.KindHello, 0, []byte(`{"protocol":999,"pid":1}`)))
	conn.Reader = io.MultiReader(hello, untilClosed{conn.closed})
	s, err := openSession(context.Background(), fakeAttachRuntime{conn: conn}, "x")
	if err == nil {
		err = s.ready(context.Background())
	}
	if !errors.Is(err, errRunnerEnded) || !strings.Contains(err.Error(), "another protocol") {
		t.Fatalf("starting the session = %v", err)
	}
	select {
	case <-conn.closed:
	case <-time.After(5 * time.Second):
		t.Fatal("the refused runner's attachment is still open")
	}
}

// fakeAttachRuntime's Attach returns conn.
type fakeAttachRuntime struct {
	Runtime
	conn *fakeConn
}

func (f fakeAttachRuntime) Attach(context.Context, string, io.Writer) (io.ReadWriteCloser, error) {
	return f.conn, nil
}

// fakeConn reads from Reader, discards writes, and records its Close.
type fakeConn struct {
	io.Reader
	once   sync.Once
	closed chan struct{}
}

func (c *fakeConn) Write(p []byte) (int, error) { return len(p), nil }
func (c *fakeConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// untilClosed blocks reads until its channel is closed, then ends.
type untilClosed struct{ closed <-chan struct{} }

func (u untilClosed) Read([]byte) (int, error) {
	<-u.closed
	return 0, io.EOF
}

type failingReader struct{ err error }

func (f *failingReader) Read([]byte) (int, error) { return 0, f.err }
