package docker_test

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// The Runtime contract shared by every driver (missing objects, exec
// streams, a failing stdin, cancellation, lifecycle, listing, reaping) is
// checked by the conformance suite (TestConformance); what is left here is
// the Docker engine's own.

// The engine has docker-init, which every sandbox runs under.
func TestEngineHasInit(t *testing.T) {
	rt := testenv.Docker(t)
	eng, err := rt.Engine(context.Background())
	if err != nil || !eng.Init {
		t.Errorf("Engine = %+v, %v (the engine must have docker-init)", eng, err)
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
