package docker

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/pkg/stdcopy"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// execEngine is an apiEngine whose exec x1 runs start (on the hijacked
// stream) and then reports exit code 3 once inspected runningFor times
// while still running.
func execEngine(t *testing.T, runningFor int32, start func(conn net.Conn, in *bufio.Reader)) (*apiEngine, *Runtime, *atomic.Int32) {
	t.Helper()
	eng, rt := newAPIEngine(t)
	var inspections atomic.Int32
	eng.reply("POST /containers/{id}/exec", http.StatusCreated, map[string]string{"Id": "x1"})
	eng.handle("POST /exec/x1/start", func(w http.ResponseWriter, _ *http.Request) { hijack(w, start) })
	eng.handle("GET /exec/x1/json", func(w http.ResponseWriter, _ *http.Request) {
		n := inspections.Add(1)
		apiJSON(w, http.StatusOK, container.ExecInspect{ExecID: "x1", Running: n <= runningFor, ExitCode: 3})
	})
	return eng, rt, &inspections
}

// Exec sends the process's spec, streams stdin in and then closes it,
// demultiplexes stdout and stderr as they arrive and returns the exit
// code once the engine stops reporting the process as running.
func TestExecStreamsAndReportsExitCode(t *testing.T) {
	eng, rt, inspections := execEngine(t, 2, func(conn net.Conn, in *bufio.Reader) {
		out, errOut := stdcopy.NewStdWriter(conn, stdcopy.Stdout), stdcopy.NewStdWriter(conn, stdcopy.Stderr)
		_, _ = out.Write([]byte("hello "))
		_, _ = errOut.Write([]byte("warn\n"))
		stdin, _ := io.ReadAll(in) // to the client's CloseWrite
		_, _ = out.Write([]byte("got:" + string(stdin)))
	})
	var stdout, stderr strings.Builder
	code, err := rt.Exec(context.Background(), "c1", sandbox.ExecSpec{
		Cmd: []string{"tar", "-x"}, User: "1000:1000", WorkDir: "/workspace", Env: []string{"A=1"},
		Stdin: strings.NewReader("input data"), Stdout: &stdout, Stderr: &stderr,
	})
	if err != nil || code != 3 {
		t.Fatalf("Exec = %d, %v; want 3", code, err)
	}
	if stdout.String() != "hello got:input data" || stderr.String() != "warn\n" {
		t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}
	if n := inspections.Load(); n != 3 {
		t.Errorf("%d inspections, want 3 (twice still running)", n)
	}
	var body container.ExecOptions
	decode(t, eng.requests(http.MethodPost, "/containers/c1/exec")[0], &body)
	if !slices.Equal(body.Cmd, []string{"tar", "-x"}) || body.User != "1000:1000" || body.WorkingDir != "/workspace" ||
		!slices.Equal(body.Env, []string{"A=1"}) || !body.AttachStdin || !body.AttachStdout || !body.AttachStderr || body.Tty {
		t.Errorf("exec create sent %+v", body)
	}
}

// Without stdin the exec is created without it; output goes nowhere when
// no writer is given.
func TestExecWithoutStdin(t *testing.T) {
	eng, rt, _ := execEngine(t, 0, func(conn net.Conn, _ *bufio.Reader) {
		_, _ = stdcopy.NewStdWriter(conn, stdcopy.Stdout).Write([]byte("ignored"))
	})
	if code, err := rt.Exec(context.Background(), "c1", sandbox.ExecSpec{Cmd: []string{"true"}}); err != nil || code != 3 {
		t.Fatalf("Exec = %d, %v", code, err)
	}
	var body container.ExecOptions
	decode(t, eng.requests(http.MethodPost, "/containers/c1/exec")[0], &body)
	if body.AttachStdin {
		t.Error("stdin attached without a reader")
	}
}

// When the context ends, Exec returns its error at once, after what the
// engine had already sent reached the writer.
func TestExecCanceled(t *testing.T) {
	_, rt, inspections := execEngine(t, 0, func(conn net.Conn, in *bufio.Reader) {
		_, _ = stdcopy.NewStdWriter(conn, stdcopy.Stdout).Write([]byte("prompt> "))
		_, _ = io.Copy(io.Discard, in) // hangs until the client closes
	})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	var stdout strings.Builder
	start := time.Now()
	code, err := rt.Exec(ctx, "c1", sandbox.ExecSpec{Cmd: []string{"sleep", "inf"}, Stdout: &stdout})
	if !errors.Is(err, context.DeadlineExceeded) || code != -1 {
		t.Errorf("Exec = %d, %v; want -1 and the deadline", code, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Exec returned %s after its context ended", d)
	}
	if stdout.String() != "prompt> " {
		t.Errorf("output before the end %q", stdout.String())
	}
	if n := inspections.Load(); n != 0 {
		t.Errorf("a canceled exec was inspected %d times", n)
	}
}

// A stdin that fails aborts the exec (the process must not take a partial
// input for the whole); a garbled output stream is an error; an exec on a
// missing container is ErrContainerNotFound.
func TestExecFailures(t *testing.T) {
	t.Run("stdin", func(t *testing.T) {
		_, rt, _ := execEngine(t, 0, func(_ net.Conn, in *bufio.Reader) { _, _ = io.Copy(io.Discard, in) })
		stdin := io.MultiReader(strings.NewReader("part"), iotestErr{errors.New("snapshot read failed")})
		_, err := rt.Exec(context.Background(), "c1", sandbox.ExecSpec{Cmd: []string{"tar", "-x"}, Stdin: stdin})
		if err == nil || !contains(err.Error(), "exec stdin", "snapshot read failed") {
			t.Errorf("a failing stdin: %v", err)
		}
	})
	t.Run("garbled output", func(t *testing.T) {
		_, rt, _ := execEngine(t, 0, func(conn net.Conn, _ *bufio.Reader) {
			_, _ = conn.Write([]byte{9, 0, 0, 0, 0, 0, 0, 1, 'x'}) // stream 9 does not exist
		})
		_, err := rt.Exec(context.Background(), "c1", sandbox.ExecSpec{Cmd: []string{"true"}})
		if err == nil || !strings.Contains(err.Error(), "exec output") {
			t.Errorf("a garbled stream: %v", err)
		}
	})
	t.Run("missing container", func(t *testing.T) {
		eng, rt := newAPIEngine(t)
		eng.fail("POST /containers/gone/exec", http.StatusNotFound, "No such container: gone")
		if _, err := rt.Exec(context.Background(), "gone", sandbox.ExecSpec{Cmd: []string{"true"}}); !errors.Is(err, sandbox.ErrContainerNotFound) {
			t.Errorf("exec in a missing container: %v", err)
		}
	})
	t.Run("refused start", func(t *testing.T) {
		eng, rt := newAPIEngine(t)
		eng.reply("POST /containers/{id}/exec", http.StatusCreated, map[string]string{"Id": "x1"})
		eng.fail("POST /exec/x1/start", http.StatusConflict, "container c1 is not running")
		if code, err := rt.Exec(context.Background(), "c1", sandbox.ExecSpec{Cmd: []string{"true"}}); err == nil || code != -1 {
			t.Errorf("a refused exec start: %d, %v", code, err)
		}
	})
}

// iotestErr is a reader that fails.
type iotestErr struct{ err error }

func (r iotestErr) Read([]byte) (int, error) { return 0, r.err }

// Attach asks for every stream of the main process, returns its stdout
// through the connection and copies its stderr apart, writes reach the
// process's stdin, and Close ends the connection (the engine then closes
// that stdin) and the reads.
func TestAttach(t *testing.T) {
	eng, rt := newAPIEngine(t)
	closed := make(chan struct{})
	eng.handle("POST /containers/c1/attach", func(w http.ResponseWriter, _ *http.Request) {
		hijack(w, func(conn net.Conn, in *bufio.Reader) {
			out := stdcopy.NewStdWriter(conn, stdcopy.Stdout)
			_, _ = out.Write([]byte("ready\n"))
			_, _ = stdcopy.NewStdWriter(conn, stdcopy.Stderr).Write([]byte("to-stderr\n"))
			for {
				line, err := in.ReadString('\n')
				if err != nil {
					close(closed)
					return
				}
				_, _ = out.Write([]byte("echo:" + line))
			}
		})
	})
	var errOut syncBuffer
	conn, err := rt.Attach(context.Background(), "c1", &errOut)
	if err != nil {
		t.Fatal(err)
	}
	q := eng.requests(http.MethodPost, "/containers/c1/attach")[0].Query
	for _, k := range []string{"stream", "stdin", "stdout", "stderr"} {
		if q.Get(k) != "1" {
			t.Errorf("attach without %s: %v", k, q)
		}
	}
	r := bufio.NewReader(conn)
	if line, err := r.ReadString('\n'); line != "ready\n" || err != nil {
		t.Fatalf("first line %q, %v", line, err)
	}
	if _, err := io.WriteString(conn, "ping\x10\x11\n"); err != nil {
		t.Fatal(err)
	}
	if line, err := r.ReadString('\n'); line != "echo:ping\x10\x11\n" || err != nil {
		t.Errorf("echo %q, %v", line, err)
	}
	if errOut.String() != "to-stderr\n" {
		t.Errorf("stderr %q", errOut.String())
	}
	if err := conn.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("the engine did not see the attachment close")
	}
	if _, err := conn.Read(make([]byte, 1)); err == nil {
		t.Error("a read after Close succeeded")
	}
	if err := conn.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}

// Attaching to a missing container is ErrContainerNotFound (the client
// reports the engine's 404 on a hijacked call untyped); another refusal
// is an error that is not; an engine gone away is ErrEngineUnavailable.
func TestAttachFailures(t *testing.T) {
	eng, rt := newAPIEngine(t)
	ctx := context.Background()
	eng.fail("POST /containers/gone/attach", http.StatusNotFound, "No such container: gone")
	eng.fail("GET /containers/gone/json", http.StatusNotFound, "No such container: gone")
	eng.fail("POST /containers/c1/attach", http.StatusConflict, "container c1 is restarting")
	eng.reply("GET /containers/c1/json", http.StatusOK, container.InspectResponse{ContainerJSONBase: &container.ContainerJSONBase{ID: "c1"}})
	if _, err := rt.Attach(ctx, "gone", nil); !errors.Is(err, sandbox.ErrContainerNotFound) {
		t.Errorf("attach to a missing container: %v, want ErrContainerNotFound", err)
	}
	if _, err := rt.Attach(ctx, "c1", nil); err == nil || errors.Is(err, sandbox.ErrContainerNotFound) {
		t.Errorf("a refused attach to an existing container: %v", err)
	}
	eng.srv.Close() // negotiated already: the hijack's own dial fails
	if _, err := rt.Attach(ctx, "c1", nil); !errors.Is(err, sandbox.ErrEngineUnavailable) {
		t.Errorf("attach with the engine gone: %v, want ErrEngineUnavailable", err)
	}
}
