package docker_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// started creates and starts a plain labelled container for a test.
func started(t *testing.T, rt sandbox.Runtime) string {
	t.Helper()
	ctx := context.Background()
	id, err := rt.Create(ctx, sandbox.ContainerSpec{Image: testenv.PythonImage, Cmd: []string{"sleep", "300"}, Init: true,
		User: sandbox.SandboxUser, Labels: map[string]string{sandbox.LabelRun: "docker-test", sandbox.LabelOwner: testenv.Owner(t)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rt.Remove(context.Background(), id) })
	if err := rt.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	return id
}

func TestRuntimeErrorsAndIdempotence(t *testing.T) {
	rt := testenv.Docker(t)
	ctx := context.Background()
	if _, err := rt.Image(ctx, "greenlight/no-such-image:latest"); !errors.Is(err, sandbox.ErrImageNotFound) {
		t.Errorf("Image of a missing image: %v", err)
	}
	if err := rt.Remove(ctx, "no-such-container-for-greenlight"); err != nil {
		t.Errorf("Remove of a missing container: %v", err)
	}
	if _, err := rt.State(ctx, "no-such-container-for-greenlight"); !errors.Is(err, sandbox.ErrContainerNotFound) {
		t.Errorf("State of a missing container: %v", err)
	}
	eng, err := rt.Engine(ctx)
	if err != nil || eng.Version == "" || !eng.Init {
		t.Errorf("Engine = %+v, %v (the engine must have docker-init)", eng, err)
	}
}

func TestExecStreamsStdinAndOutput(t *testing.T) {
	rt := testenv.Docker(t)
	id := started(t, rt)
	var out, errOut strings.Builder
	code, err := rt.Exec(context.Background(), id, sandbox.ExecSpec{
		Cmd: []string{"sh", "-c", "tr a-z A-Z; echo oops >&2; exit 4"}, User: sandbox.SandboxUser,
		Stdin: strings.NewReader("hello"), Stdout: &out, Stderr: &errOut,
	})
	if err != nil || code != 4 || out.String() != "HELLO" || errOut.String() != "oops\n" {
		t.Errorf("code %d err %v stdout %q stderr %q", code, err, out.String(), errOut.String())
	}
}

// A failing stdin aborts the exec with that error (a snapshot that fails
// validation half-way must not look complete to tar).
func TestExecStdinFailureAborts(t *testing.T) {
	rt := testenv.Docker(t)
	id := started(t, rt)
	boom := errors.New("validation failed")
	_, err := rt.Exec(context.Background(), id, sandbox.ExecSpec{
		Cmd: []string{"sh", "-c", "cat > /dev/null; echo done"}, User: sandbox.SandboxUser,
		Stdin: io.MultiReader(strings.NewReader("partial"), failing{boom}),
	})
	if !errors.Is(err, boom) {
		t.Errorf("Exec = %v, want the stdin error", err)
	}
}

type failing struct{ err error }

func (f failing) Read([]byte) (int, error) { return 0, f.err }

func TestExecReturnsPromptlyWhenCanceled(t *testing.T) {
	rt := testenv.Docker(t)
	id := started(t, rt)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := rt.Exec(ctx, id, sandbox.ExecSpec{Cmd: []string{"sleep", "60"}, User: sandbox.SandboxUser})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Errorf("Exec = %v after %s", err, time.Since(start))
	}
}

// Attach, before start, gets everything the main process writes (its
// stdout through the stream, its stderr apart), feeds its stdin, and when
// the attachment closes the engine closes that stdin: a main process
// reading it ends, and the container stops, as when its creator dies.
func TestAttachBeforeStartAndStdinClosesWithIt(t *testing.T) {
	rt := testenv.Docker(t)
	ctx := context.Background()
	id, err := rt.Create(ctx, sandbox.ContainerSpec{
		Image: testenv.PythonImage, Init: true, User: sandbox.SandboxUser, OpenStdin: true,
		Cmd:    []string{"sh", "-c", "echo first; echo to-stderr >&2; while read -r l; do echo \"got $l\"; done; exit 7"},
		Labels: map[string]string{sandbox.LabelRun: "docker-test", sandbox.LabelOwner: testenv.Owner(t)},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rt.Remove(context.Background(), id) })
	var errOut lockedBuilder
	conn, err := rt.Attach(ctx, id, &errOut)
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	// Ctrl-P Ctrl-Q, the engine's default detach keys, are plain bytes
	// here (no TTY): the runner's frames carry arbitrary bytes.
	if _, err := io.WriteString(conn, "ping\x10\x11\x03pong\n"); err != nil {
		t.Fatal(err)
	}
	want := "first\ngot ping\x10\x11\x03pong\n"
	buf := make([]byte, len(want))
	if _, err := io.ReadFull(conn, buf); err != nil || string(buf) != want {
		t.Fatalf("read %q, %v; want %q", buf, err, want)
	}
	// stderr arrives apart, in its own frames.
	for end := time.Now().Add(10 * time.Second); errOut.String() != "to-stderr\n"; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("stderr %q", errOut.String())
		}
	}
	_ = conn.Close()
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		st, err := rt.State(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if !st.Running {
			if st.ExitCode != 7 {
				t.Errorf("exit code %d, want 7 (the loop ended at the end of its stdin)", st.ExitCode)
			}
			break
		}
		if time.Now().After(end) {
			t.Fatal("the main process still runs after its attachment closed")
		}
	}
}

// lockedBuilder is a strings.Builder safe for a writer and a reader.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
