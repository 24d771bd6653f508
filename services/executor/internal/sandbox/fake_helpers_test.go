package sandbox_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap/zaptest"

	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/executor/internal/enginefake"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// Images of the engine-free tests: one with greenlight-runner, one without.
const (
	fakeRunnerImage = "greenlight/sandbox-fake:latest"
	fakePlainImage  = "example.com/plain:1"
)

// fakeIdentity is the executor identity of the engine-free tests.
var fakeIdentity = sandbox.Identity{Host: "fake-host", PID: 4242, PIDStart: "1"}

// fake is a Runner on enginefake with a real blob store.
type fake struct {
	t      *testing.T
	eng    *enginefake.Engine
	blobs  *blob.Store
	runner *sandbox.Runner
}

// newEngine returns a fake engine with both test images, closed (and
// checked to hold no container) when the test ends.
func newEngine(t *testing.T) *enginefake.Engine {
	t.Helper()
	eng, err := enginefake.New()
	if err != nil {
		t.Fatal(err)
	}
	eng.Add(enginefake.NewImage(fakeRunnerImage, true))
	eng.Add(enginefake.NewImage(fakePlainImage, false))
	t.Cleanup(func() {
		if err := eng.Close(); err != nil {
			t.Errorf("closing the fake engine: %v", err)
		}
	})
	return eng
}

// newFake returns a Runner on a new fake engine; mutate adjusts the
// configuration. When the test ends, every container must be gone.
func newFake(t *testing.T, mutate func(*sandbox.Config), opts ...sandbox.Option) *fake {
	t.Helper()
	return newFakeOn(t, newEngine(t), mutate, opts...)
}

// newFakeOn is newFake on eng.
func newFakeOn(t *testing.T, eng *enginefake.Engine, mutate func(*sandbox.Config), opts ...sandbox.Option) *fake {
	t.Helper()
	cfg := sandbox.DefaultConfig()
	cfg.TempDir = t.TempDir()
	cfg.CleanupTimeout = 5 * time.Second
	if mutate != nil {
		mutate(&cfg)
	}
	blobs := testenv.Blobs(t)
	opts = append([]sandbox.Option{sandbox.WithLogger(zaptest.NewLogger(t)), sandbox.WithIdentity(fakeIdentity)}, opts...)
	r, err := sandbox.NewRunner(cfg, eng, blobs, opts...)
	if err != nil {
		t.Fatalf("NewRunner: %v", err)
	}
	f := &fake{t: t, eng: eng, blobs: blobs, runner: r}
	t.Cleanup(func() {
		r.Wait()
		for _, c := range eng.Containers() {
			if c.Spec.Labels[sandbox.LabelPool] == "" {
				t.Errorf("container %s (%s) outlived its run", c.ID[:12], c.Spec.Name)
			}
		}
	})
	return f
}

// request is a request for steps in image over files.
func (f *fake) request(image string, files map[string]testenv.File, steps ...sandbox.Step) sandbox.Request {
	if files == nil {
		files = map[string]testenv.File{"README": {Body: "hello\n"}}
	}
	return sandbox.Request{
		RunID: "run-" + strings.ReplaceAll(f.t.Name(), "/", "-"), Owner: "owner-1",
		Snapshot: testenv.Snapshot(f.t, f.blobs, files), Image: image, Steps: steps,
	}
}

// run runs req to its end, failing the test when it cannot start.
func (f *fake) run(ctx context.Context, req sandbox.Request) (*sandbox.Result, *events) {
	f.t.Helper()
	ev := &events{}
	res, err := f.runner.Run(ctx, req, ev.sink)
	if err != nil {
		f.t.Fatalf("Run: %v", err)
	}
	f.runner.Wait()
	return res, ev
}

// log reads a stored log.
func (f *fake) log(d blob.Digest) string {
	f.t.Helper()
	return (&harness{t: f.t, blobs: f.blobs}).log(d)
}

// stepProcs returns the commands the engine ran for steps (those started
// through stepCmd's oom_score_adj prologue), by their shell command.
func stepProcs(eng *enginefake.Engine) map[string]enginefake.Proc {
	out := map[string]enginefake.Proc{}
	for _, p := range eng.Procs() {
		if n := len(p.Argv); n > 1 && strings.Contains(strings.Join(p.Argv, " "), "oom_score_adj") {
			out[p.Argv[n-1]] = p
		}
	}
	return out
}

// waitFor waits (at most 10 s) until cond holds; background work (the
// pool's refills, removals) has no event to wait on.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		<-tick.C
	}
}

// runContainer returns the id of the container of a run, "" when none
// exists.
func runContainer(eng *enginefake.Engine, runID string) string {
	for _, c := range eng.Containers() {
		if c.Spec.Labels[sandbox.LabelRun] == runID {
			return c.ID
		}
	}
	return ""
}
