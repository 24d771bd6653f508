package sandbox_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap/zaptest"

	"github.com/greenlight-dev/greenlight/services/executor/internal/enginefake"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// newFakePool returns a Runner with a pool of one container per image on a
// new fake engine, closed when the test ends.
func newFakePool(t *testing.T, opts ...sandbox.Option) (*fake, *sandbox.Pool) {
	t.Helper()
	eng := newEngine(t)
	cfg := sandbox.DefaultConfig()
	pool := sandbox.NewPool(eng, cfg, fakeIdentity, 1, zaptest.NewLogger(t))
	t.Cleanup(func() {
		pool.Close()
		if n := len(eng.Containers()); n != 0 {
			t.Errorf("%d containers left after the pool closed", n)
		}
	})
	return newFakeOn(t, eng, nil, append(opts, sandbox.WithPool(pool))...), pool
}

// A run takes its sandbox from the warm pool instead of creating one, and
// the pool refills after the run.
func TestFakePoolServesRuns(t *testing.T) {
	for _, m := range fakeModes {
		t.Run(m.name, func(t *testing.T) {
			f, pool := newFakePool(t)
			pool.Warm(enginefake.NewImage(m.image, m.image == fakeRunnerImage))
			waitFor(t, "the pool holds a container", func() bool { return pool.Idle(m.image) == 1 })
			pooled := f.eng.Containers()[0]
			if pooled.Spec.Labels[sandbox.LabelPool] != m.image || len(pooled.Networks) != 0 || pooled.State != enginefake.StateRunning {
				t.Fatalf("pooled container %+v", pooled)
			}
			res, _ := f.run(context.Background(), f.request(m.image, nil, step("a", "true")))
			if res.Steps[0].Status != sandbox.StatusOK {
				t.Fatalf("a = %s (%q)", res.Steps[0].Status, res.Steps[0].Reason)
			}
			if p := stepProcs(f.eng)["true"]; p.Container != pooled.ID {
				t.Errorf("the step ran in %s, not in the pooled container %s", p.Container, pooled.ID)
			}
			waitFor(t, "the pool refills", func() bool { return pool.Idle(m.image) == 1 && len(f.eng.Specs()) == 2 })
		})
	}
}

// Only the configured images are pooled, and a run with other limits
// creates its own sandbox.
func TestFakePoolOnlyAndLimits(t *testing.T) {
	f, pool := newFakePool(t)
	pool.Only("greenlight/other:1")
	pool.Warm(enginefake.NewImage(fakeRunnerImage, true))
	req := f.request(fakeRunnerImage, nil, step("a", "true"))
	req.Limits.Pids = 77
	f.run(context.Background(), req)
	if pool.Idle(fakeRunnerImage) != 0 || len(f.eng.Specs()) != 1 || f.eng.Specs()[0].PidsLimit != 77 {
		t.Errorf("idle %d, specs %d: the image must not be pooled", pool.Idle(fakeRunnerImage), len(f.eng.Specs()))
	}
}

// After a run with a cached install, the pool stages a sandbox holding its
// dependencies, and the owner's next run starts from it.
func TestFakeStagedSandbox(t *testing.T) {
	f, pool := newFakePool(t, sandbox.WithDepCache(newMemCache()))
	req := func() sandbox.Request {
		return f.request(fakeRunnerImage, reqFiles, installStep(), step("check", "cat deps/x"))
	}
	f.run(context.Background(), req())
	waitFor(t, "a staged sandbox", func() bool { return pool.Staged(fakeRunnerImage) == 1 })
	res, ev := f.run(context.Background(), req())
	if !res.Steps[0].CacheHit || !strings.Contains(ev.text(0, sandbox.StreamSystem), "staged sandbox") || ev.text(1, sandbox.StreamStdout) != "dep\n" {
		t.Errorf("hit %v, notes %q, deps/x %q", res.Steps[0].CacheHit, ev.text(0, sandbox.StreamSystem), ev.text(1, sandbox.StreamStdout))
	}
}

// The reaper removes the containers of dead executors on this host and
// those past their deadline, and nothing else.
func TestFakeReaperSweeps(t *testing.T) {
	eng := newEngine(t)
	future, past := strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10), strconv.FormatInt(time.Now().Add(-time.Minute).Unix(), 10)
	create := func(name, host, pid, deadline string) {
		labels := map[string]string{sandbox.LabelRun: name, sandbox.LabelHost: host, sandbox.LabelPID: pid,
			sandbox.LabelPIDStart: "1", sandbox.LabelDeadline: deadline}
		if _, err := eng.Create(context.Background(), sandbox.ContainerSpec{Name: name, Image: fakePlainImage, Labels: labels}); err != nil {
			t.Fatal(err)
		}
	}
	create("mine", fakeIdentity.Host, "4242", future)
	create("expired", "elsewhere", "1", past)
	create("other-host", "elsewhere", "1", future)
	create("dead-executor", fakeIdentity.Host, "999999999", future)
	create("no-pid", fakeIdentity.Host, "x", future)
	n, err := sandbox.NewReaper(eng, fakeIdentity, zaptest.NewLogger(t)).Sweep(context.Background())
	if err != nil || n != 3 {
		t.Fatalf("Sweep = %d, %v; want 3 removed", n, err)
	}
	var left []string
	for _, c := range eng.Containers() {
		left = append(left, c.Spec.Name)
	}
	if got := strings.Join(left, " "); got != "mine other-host" {
		t.Errorf("left %q", got)
	}
	eng.SetDown(true)
	if _, err := sandbox.NewReaper(eng, fakeIdentity, zaptest.NewLogger(t)).Sweep(context.Background()); err == nil {
		t.Error("Sweep on a dead engine succeeded")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sandbox.NewReaper(eng, fakeIdentity, zaptest.NewLogger(t)).Run(ctx, time.Hour) // returns at once
}
