package enginefake_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/enginefake"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// The behaviour the fake documents beyond the conformance suite: what
// tests of the sandbox and the service rely on when they inject faults,
// switch networks, pull or crash a container.

const testImage = "greenlight/test:1"

// newEngine is a fake engine with testImage, closed when the test ends.
func newEngine(t *testing.T) *enginefake.Engine {
	t.Helper()
	eng, err := enginefake.New()
	if err != nil {
		t.Fatal(err)
	}
	eng.Add(enginefake.NewImage(testImage, false))
	t.Cleanup(func() {
		if err := eng.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return eng
}

// running creates and starts a container of testImage on network.
func running(t *testing.T, eng *enginefake.Engine, name, network string) string {
	t.Helper()
	ctx := context.Background()
	id, err := eng.Create(ctx, sandbox.ContainerSpec{Name: name, Image: testImage, Network: network, User: sandbox.SandboxUser,
		Env: []string{"PATH=/usr/bin:/bin"}, WorkDir: "/tmp", Tmpfs: map[string]string{"/tmp": "rw,mode=1777"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	return id
}

// SetDown, FailOn and Block fail or hang the calls they name, and every
// call is recorded, failed ones too.
func TestFaults(t *testing.T) {
	eng := newEngine(t)
	ctx := context.Background()
	boom := errors.New("boom")

	eng.SetDown(true)
	if err := eng.Ping(ctx); !errors.Is(err, sandbox.ErrEngineUnavailable) {
		t.Errorf("Ping while down: %v", err)
	}
	if _, err := eng.Image(ctx, testImage); !errors.Is(err, sandbox.ErrEngineUnavailable) {
		t.Errorf("Image while down: %v", err)
	}
	eng.SetDown(false)

	eng.FailOn(enginefake.OpList, boom)
	if _, err := eng.List(ctx, "x"); !errors.Is(err, boom) {
		t.Errorf("List with a fault: %v", err)
	}
	if err := eng.Ping(ctx); err != nil {
		t.Errorf("Ping with another op's fault: %v", err)
	}
	eng.FailOn(enginefake.OpList, nil)
	if _, err := eng.List(ctx, "x"); err != nil {
		t.Errorf("List after the fault was cleared: %v", err)
	}

	eng.Block(enginefake.OpEngine, true)
	bctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := eng.Engine(bctx); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) < 40*time.Millisecond {
		t.Errorf("a blocked call returned %v after %s", err, time.Since(start))
	}
	eng.Block(enginefake.OpEngine, false)
	if info, err := eng.Engine(ctx); err != nil || info.Version != "fake" || !info.Init {
		t.Errorf("Engine = %+v, %v", info, err)
	}
	eng.SetInfo(sandbox.EngineInfo{Version: "20.10.24", OS: "linux"})
	if info, _ := eng.Engine(ctx); info.Version != "20.10.24" || info.Init {
		t.Errorf("Engine after SetInfo = %+v", info)
	}

	if n := len(eng.CallsOf(enginefake.OpList)); n != 2 {
		t.Errorf("%d list calls recorded, want 2 (the failed one too)", n)
	}
	calls := eng.Calls()
	if len(calls) < 2 || calls[0].Op != enginefake.OpPing || calls[1] != (enginefake.Call{Op: enginefake.OpImage, Arg: testImage}) {
		t.Errorf("calls %v", calls)
	}
}

// Pull fetches only what AddRemote registered; Create refuses what the
// engine lacks, an unknown network and a name in use.
func TestImagesAndCreate(t *testing.T) {
	eng := newEngine(t)
	ctx := context.Background()
	eng.AddRemote(enginefake.NewImage("python:3.12", false))
	if _, err := eng.Create(ctx, sandbox.ContainerSpec{Image: "python:3.12"}); !errors.Is(err, sandbox.ErrImageNotFound) {
		t.Errorf("Create before the pull: %v", err)
	}
	if err := eng.Pull(ctx, "python:3.12"); err != nil {
		t.Fatalf("Pull: %v", err)
	}
	if img, err := eng.Image(ctx, "python:3.12"); err != nil || img.Ref != "python:3.12" {
		t.Errorf("Image after the pull = %+v, %v", img, err)
	}
	if err := eng.Pull(ctx, "nowhere:1"); err == nil || !strings.Contains(err.Error(), "repository does not exist") {
		t.Errorf("Pull of an unknown image: %v", err)
	}
	if _, err := eng.Create(ctx, sandbox.ContainerSpec{Image: testImage, Network: "nonet"}); err == nil ||
		!strings.Contains(err.Error(), "network nonet not found") {
		t.Errorf("Create on a missing network: %v", err)
	}
	running(t, eng, "box", "")
	if _, err := eng.Create(ctx, sandbox.ContainerSpec{Image: testImage, Name: "box"}); err == nil ||
		!strings.Contains(err.Error(), "already in use") {
		t.Errorf("Create with a name in use: %v", err)
	}
	if specs := eng.Specs(); len(specs) != 1 || specs[0].Name != "box" {
		t.Errorf("specs %v, want only the created one", specs)
	}
}

// Connect and Disconnect answer as the engine does: a network must exist,
// a container created without network cannot get one, an endpoint exists
// once; processes see the networks attached when they started.
func TestNetworks(t *testing.T) {
	eng := newEngine(t)
	ctx := context.Background()
	offline := running(t, eng, "offline", "")
	online := running(t, eng, "online", "bridge")
	eng.AddNetwork("egress")
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"unknown network", eng.Connect(ctx, online, "nonet"), "network nonet not found"},
		{"networking disabled", eng.Connect(ctx, offline, "egress"), "networking disabled"},
		{"missing container", eng.Connect(ctx, "nope", "egress"), sandbox.ErrContainerNotFound.Error()},
		{"connect", eng.Connect(ctx, online, "egress"), ""},
		{"twice", eng.Connect(ctx, online, "egress"), "already exists"},
		{"disconnect", eng.Disconnect(ctx, online, "bridge"), ""},
		{"not connected", eng.Disconnect(ctx, online, "bridge"), "is not connected"},
		{"disconnect missing", eng.Disconnect(ctx, "nope", "bridge"), sandbox.ErrContainerNotFound.Error()},
	} {
		if (tc.want == "") != (tc.err == nil) || (tc.err != nil && !strings.Contains(tc.err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, tc.err, tc.want)
		}
	}
	var stderr strings.Builder
	if code, err := eng.Exec(ctx, online, sandbox.ExecSpec{Cmd: []string{"true"}, User: sandbox.SandboxUser, Stderr: &stderr}); err != nil || code != 0 {
		t.Fatalf("Exec = %d, %v (%s)", code, err, stderr.String())
	}
	procs := eng.Procs()
	if len(procs) != 1 || !slices.Equal(procs[0].Networks, []string{"egress"}) || procs[0].Container != online {
		t.Errorf("procs %+v, want one on [egress]", procs)
	}
	for _, c := range eng.Containers() {
		if c.ID == online && !slices.Equal(c.Networks, []string{"egress"}) {
			t.Errorf("container networks %v", c.Networks)
		}
	}
}

// Exec reports a process that cannot start as the engine does (127 for a
// missing command, 126 for one that cannot run, the reason on stderr) and
// refuses a container that does not run; Crash ends a container with the
// code and OOM flag asked, killing its processes.
func TestExecFailuresAndCrash(t *testing.T) {
	eng := newEngine(t)
	ctx := context.Background()
	id := running(t, eng, "", "")
	var stderr strings.Builder
	code, err := eng.Exec(ctx, id, sandbox.ExecSpec{Cmd: []string{"no-such-command-xyz"}, User: sandbox.SandboxUser, Stderr: &stderr})
	if err != nil || code != 127 || !strings.Contains(stderr.String(), "executable file not found") {
		t.Errorf("a missing command: %d, %v, stderr %q", code, err, stderr.String())
	}
	stderr.Reset()
	code, err = eng.Exec(ctx, id, sandbox.ExecSpec{Cmd: []string{"/etc/hostname"}, User: sandbox.SandboxUser, Stderr: &stderr})
	if err != nil || code != 126 || stderr.Len() == 0 {
		t.Errorf("a file that is not executable: %d, %v, stderr %q", code, err, stderr.String())
	}

	done := make(chan error, 1)
	go func() {
		_, err := eng.Exec(ctx, id, sandbox.ExecSpec{Cmd: []string{"sleep", "30"}, User: sandbox.SandboxUser})
		done <- err
	}()
	sleeping := func() bool {
		return slices.ContainsFunc(eng.Procs(), func(p enginefake.Proc) bool { return slices.Contains(p.Argv, "sleep") })
	}
	for deadline := time.Now().Add(5 * time.Second); !sleeping(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the process did not start: %v", eng.Procs())
		}
	}
	if err := eng.Crash(id, 137, true); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a crash left the container's process running")
	}
	if st, err := eng.State(ctx, id); err != nil || st != (sandbox.ContainerState{OOMKilled: true, ExitCode: 137}) {
		t.Errorf("State after the crash = %+v, %v", st, err)
	}
	if _, err := eng.Exec(ctx, id, sandbox.ExecSpec{Cmd: []string{"true"}, User: sandbox.SandboxUser}); err == nil ||
		!strings.Contains(err.Error(), "is not running") {
		t.Errorf("Exec in an exited container: %v", err)
	}
	if err := eng.Crash("nope", 1, false); !errors.Is(err, sandbox.ErrContainerNotFound) {
		t.Errorf("Crash of a missing container: %v", err)
	}
}
