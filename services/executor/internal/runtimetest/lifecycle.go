package runtimetest

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// testEngine: the engine answers and describes itself.
func testEngine(t *testing.T, s *suite) {
	ctx := context.Background()
	if err := s.h.Runtime.Ping(ctx); err != nil {
		t.Errorf("Ping: %v", err)
	}
	info, err := s.h.Runtime.Engine(ctx)
	if err != nil || info.Version == "" || info.OS != "linux" {
		t.Errorf("Engine = %+v, %v; want a version and OS linux", info, err)
	}
	img, err := s.h.Runtime.Image(ctx, s.h.Image)
	if err != nil || img.ID == "" || img.Labels[runnerproto.LabelRunner] == "" {
		t.Errorf("Image(%s) = %+v, %v; want an ID and the runner label", s.h.Image, img, err)
	}
}

// testLifecycle: created → started → exec with stdin, stdout, stderr and
// the exit code in the sandbox's writable workspace → removed and gone.
func testLifecycle(t *testing.T, s *suite) {
	rt, ctx := s.h.Runtime, context.Background()
	id := s.create(t, like(s.exec, testenv.Owner(t)))
	if st, err := rt.State(ctx, id); err != nil || st.Running {
		t.Fatalf("State of a created container = %+v, %v; want not running", st, err)
	}
	if err := rt.Start(ctx, id); err != nil {
		t.Fatalf("Start: %v", err)
	}
	if st, err := rt.State(ctx, id); err != nil || !st.Running {
		t.Fatalf("State of a started container = %+v, %v; want running", st, err)
	}
	var out, errOut strings.Builder
	code, err := rt.Exec(ctx, id, sandbox.ExecSpec{
		Cmd:  []string{"/bin/sh", "-c", "tr a-z A-Z >upper && cat upper; echo oops >&2; exit 4"},
		User: sandbox.SandboxUser, WorkDir: sandbox.WorkspaceDir, Env: s.exec.Env,
		Stdin: strings.NewReader("hello"), Stdout: &out, Stderr: &errOut,
	})
	if err != nil || code != 4 || out.String() != "HELLO" || errOut.String() != "oops\n" {
		t.Errorf("Exec: code %d err %v stdout %q stderr %q; want 4, HELLO, oops", code, err, out.String(), errOut.String())
	}
	if err := rt.Remove(ctx, id); err != nil {
		t.Fatalf("Remove: %v", err)
	}
	if _, err := rt.State(ctx, id); !errors.Is(err, sandbox.ErrContainerNotFound) {
		t.Errorf("State of a removed container: %v, want ErrContainerNotFound", err)
	}
	if err := rt.Remove(ctx, id); err != nil {
		t.Errorf("a second Remove: %v, want nil", err)
	}
}

// failingReader fails every read with err.
type failingReader struct{ err error }

func (f failingReader) Read([]byte) (int, error) { return 0, f.err }

// testExecStdinFailure: a stdin that fails aborts the exec with its error
// (a snapshot that fails validation half-way must not look complete to
// the tar reading it).
func testExecStdinFailure(t *testing.T, s *suite) {
	id := s.started(t)
	boom := errors.New("validation failed")
	_, err := s.h.Runtime.Exec(context.Background(), id, sandbox.ExecSpec{
		Cmd: []string{"/bin/sh", "-c", "cat >/dev/null; echo done"}, User: sandbox.SandboxUser, Env: s.exec.Env,
		Stdin: io.MultiReader(strings.NewReader("partial"), failingReader{boom}),
	})
	if !errors.Is(err, boom) {
		t.Errorf("Exec = %v, want the stdin's error", err)
	}
}

// testAttachRunner: a runner-mode sandbox attached before its start says
// hello over the attachment, and stops when the attachment closes (the
// engine closes the runner's stdin), as when its creator dies.
func testAttachRunner(t *testing.T, s *suite) {
	rt, ctx := s.h.Runtime, context.Background()
	id := s.create(t, like(s.runner, testenv.Owner(t)))
	conn, err := rt.Attach(ctx, id, io.Discard)
	if err != nil {
		t.Fatalf("Attach: %v", err)
	}
	defer func() { _ = conn.Close() }()
	if err := rt.Start(ctx, id); err != nil {
		t.Fatalf("Start: %v", err)
	}
	hello := make(chan error, 1)
	go func() { hello <- readHello(conn) }()
	select {
	case err := <-hello:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no hello from the runner within 20 s")
	}
	_ = conn.Close()
	waitStopped(t, rt, id, 20*time.Second)
}

// readHello reads the runner's first frame and checks it is a hello of
// this protocol version.
func readHello(r io.Reader) error {
	f, err := runnerproto.NewReader(r).Next()
	if err != nil {
		return err
	}
	var h runnerproto.Hello
	if f.Kind != runnerproto.KindHello {
		return errors.New("the runner's first frame is " + f.Kind.String() + ", not a hello")
	}
	if err := f.Decode(&h); err != nil {
		return err
	}
	if h.Protocol != runnerproto.Version {
		return errors.New("the runner speaks another protocol version")
	}
	return nil
}

// waitStopped fails t unless container id stops within wait.
func waitStopped(t *testing.T, rt sandbox.Runtime, id string, wait time.Duration) {
	t.Helper()
	for end := time.Now().Add(wait); ; time.Sleep(50 * time.Millisecond) {
		st, err := rt.State(context.Background(), id)
		if err != nil {
			t.Fatalf("State: %v", err)
		}
		if !st.Running {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("the container still runs %s after its attachment closed", wait)
		}
	}
}

// testListByOwner: List finds containers, running or not, by owner label
// (key=value) and by label key, with their labels.
func testListByOwner(t *testing.T, s *suite) {
	ownerA, ownerB := testenv.Owner(t)+"-a", testenv.Owner(t)+"-b"
	a := s.create(t, like(s.exec, ownerA))
	b := s.create(t, like(s.exec, ownerB))
	if err := s.h.Runtime.Start(context.Background(), b); err != nil {
		t.Fatalf("Start: %v", err)
	}
	listA := testenv.Containers(t, s.h.Runtime, ownerA)
	if len(listA) != 1 || listA[0].ID != a || listA[0].Labels[sandbox.LabelOwner] != ownerA || listA[0].Created.IsZero() {
		t.Errorf("List(owner=A) = %+v, want only %s with its labels and creation time", listA, a)
	}
	all, err := s.h.Runtime.List(context.Background(), sandbox.LabelOwner)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, c := range all {
		if c.ID == a || c.ID == b {
			found++
		}
	}
	if found != 2 {
		t.Errorf("List(%s) found %d of the 2 containers carrying the key", sandbox.LabelOwner, found)
	}
}
