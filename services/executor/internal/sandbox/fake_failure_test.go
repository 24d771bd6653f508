package sandbox_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/enginefake"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

var errBoom = errors.New("boom")

// Both step runner modes, for tests that must hold in each.
var fakeModes = []struct{ name, image string }{{"runner", fakeRunnerImage}, {"exec", fakePlainImage}}

// A step that outlives its timeout, the run budget or its caller ends
// with the right status, and its sandbox is destroyed at once.
func TestFakeTimeoutsAndCancellation(t *testing.T) {
	for _, m := range fakeModes {
		t.Run(m.name, func(t *testing.T) {
			t.Run("step timeout", func(t *testing.T) {
				f := newFake(t, nil)
				s := step("slow", "sleep 30")
				s.Timeout = 100 * time.Millisecond
				res, _ := f.run(context.Background(), f.request(m.image, nil, s, step("next", "true")))
				if res.Steps[0].Status != sandbox.StatusTimedOut || !strings.Contains(res.Steps[0].Reason, "timed out after 100ms") ||
					res.Steps[1].Status != sandbox.StatusSkipped {
					t.Errorf("results %v (%q)", statuses(res), res.Steps[0].Reason)
				}
				if len(f.eng.CallsOf(enginefake.OpRemove)) == 0 || len(f.eng.Containers()) != 0 {
					t.Errorf("the sandbox was not destroyed: %+v", f.eng.Containers())
				}
			})
			t.Run("run budget", func(t *testing.T) {
				f := newFake(t, nil)
				req := f.request(m.image, nil, step("slow", "sleep 30"))
				req.Limits.RunTimeout = 150 * time.Millisecond
				res, _ := f.run(context.Background(), req)
				if res.Steps[0].Status != sandbox.StatusTimedOut || !strings.Contains(res.Steps[0].Reason, "run budget") {
					t.Errorf("slow = %s (%q)", res.Steps[0].Status, res.Steps[0].Reason)
				}
			})
			t.Run("caller cancels", func(t *testing.T) {
				f := newFake(t, nil)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				ev := &events{}
				sink := func(e sandbox.Event) error {
					if c, ok := e.(*sandbox.LogChunk); ok && strings.Contains(c.Data, "started") {
						cancel()
					}
					return ev.sink(e)
				}
				res, err := f.runner.Run(ctx, f.request(m.image, nil, step("slow", "echo started; sleep 30"), step("next", "true")), sink)
				f.runner.Wait()
				if err != nil {
					t.Fatal(err)
				}
				if got := statuses(res); !slices.Equal(got, []sandbox.Status{sandbox.StatusCanceled, sandbox.StatusSkipped}) {
					t.Errorf("statuses %v (%q)", got, res.Steps[0].Reason)
				}
			})
		})
	}
}

// The cgroup's OOM counter rising during a step makes it OOM_KILLED, even
// when the step exits 0, and only that step.
func TestFakeOOMCounter(t *testing.T) {
	for _, m := range fakeModes {
		t.Run(m.name, func(t *testing.T) {
			f := newFake(t, nil)
			oom := step("oom", "echo 'oom_kill 1' > /sys/fs/cgroup/memory.events")
			oom.ContinueOnFailure = true
			res, _ := f.run(context.Background(), f.request(m.image, nil, oom, step("after", "true")))
			if got := statuses(res); !slices.Equal(got, []sandbox.Status{sandbox.StatusOOMKilled, sandbox.StatusOK}) {
				t.Fatalf("statuses %v", got)
			}
			if !strings.Contains(res.Steps[0].Reason, "OOM-killed") || !strings.Contains(res.Steps[0].Reason, "exited 0") {
				t.Errorf("reason %q", res.Steps[0].Reason)
			}
		})
	}
}

// A sandbox whose main process dies during a step: an infrastructure
// error, or OOM_KILLED when the engine says the OOM killer did it.
func TestFakeMainProcessDies(t *testing.T) {
	cases := []struct {
		name, image string
		code        int
		oom         bool
		want        sandbox.Status
		reason      string
	}{
		{"runner killed by OOM", fakeRunnerImage, 137, true, sandbox.StatusOOMKilled, "step runner or main process"},
		{"runner fails", fakeRunnerImage, 2, false, sandbox.StatusError, "the step runner ended"},
		{"exec mode OOM", fakePlainImage, 137, true, sandbox.StatusOOMKilled, "OOM-killed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, nil)
			req := f.request(tc.image, nil, step("victim", "echo up; sleep 30"))
			sink := func(e sandbox.Event) error {
				if c, ok := e.(*sandbox.LogChunk); ok && strings.Contains(c.Data, "up") {
					if err := f.eng.Crash(runContainer(f.eng, req.RunID), tc.code, tc.oom); err != nil {
						t.Errorf("Crash: %v", err)
					}
				}
				return nil
			}
			res, err := f.runner.Run(context.Background(), req, sink)
			f.runner.Wait()
			if err != nil {
				t.Fatal(err)
			}
			if res.Steps[0].Status != tc.want || !strings.Contains(res.Steps[0].Reason, tc.reason) {
				t.Errorf("victim = %s (%q), want %s (%q)", res.Steps[0].Status, res.Steps[0].Reason, tc.want, tc.reason)
			}
		})
	}
}

// A run that cannot start fails with the sentinel the gRPC layer maps;
// a sandbox that cannot be prepared fails its steps as ERROR.
func TestFakeRunRefused(t *testing.T) {
	cases := []struct {
		name   string
		setup  func(f *fake, req *sandbox.Request)
		mode   string
		want   error
		reason string
	}{
		{"engine down", func(f *fake, _ *sandbox.Request) { f.eng.SetDown(true) }, "", sandbox.ErrEngineUnavailable, "down"},
		{"no init", func(f *fake, _ *sandbox.Request) { f.eng.SetInfo(sandbox.EngineInfo{Version: "x"}) }, "", sandbox.ErrEngineUnavailable, "docker-init"},
		{"image missing", func(_ *fake, req *sandbox.Request) { req.Image = "greenlight/sandbox-rust:latest" }, "", sandbox.ErrImageNotFound, "make images"},
		{"no runner in agent mode", func(_ *fake, req *sandbox.Request) { req.Image = fakePlainImage }, sandbox.StepRunnerAgent, sandbox.ErrNoStepRunner, "greenlight.runner"},
		{"snapshot missing", func(f *fake, req *sandbox.Request) {
			req.Snapshot = testenv.Snapshot(f.t, testenv.Blobs(f.t), map[string]testenv.File{"x": {Body: "other store"}})
		}, "", sandbox.ErrSnapshotNotFound, "BlobService.Write"},
		{"snapshot invalid", func(f *fake, req *sandbox.Request) {
			req.Snapshot = testenv.Put(f.t, f.blobs, []byte("not a tar archive, not at all, but long enough to be read as one...."))
		}, "", sandbox.ErrInvalidSnapshot, ""},
		{"no steps", func(_ *fake, req *sandbox.Request) { req.Steps = nil }, "", sandbox.ErrInvalidRequest, "no steps"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, func(c *sandbox.Config) { c.StepRunner = tc.mode })
			req := f.request(fakeRunnerImage, nil, step("a", "true"))
			tc.setup(f, &req)
			_, err := f.runner.Run(context.Background(), req, (&events{}).sink)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.reason) {
				t.Errorf("Run = %v, want %v mentioning %q", err, tc.want, tc.reason)
			}
			if n := len(f.eng.Specs()); n != 0 {
				t.Errorf("%d containers created for a refused run", n)
			}
		})
	}
}

// Failures while preparing a sandbox make its steps ERROR and remove
// what was created.
func TestFakeSandboxPreparationFails(t *testing.T) {
	cases := []struct {
		name   string
		mode   string
		setup  func(e *enginefake.Engine)
		reason string
	}{
		{"create", "", func(e *enginefake.Engine) { e.FailOn(enginefake.OpCreate, errBoom) }, "preparing the sandbox failed: boom"},
		{"start", "", func(e *enginefake.Engine) { e.FailOn(enginefake.OpStart, errBoom) }, "boom"},
		{"stale runner in agent mode", sandbox.StepRunnerAgent, func(e *enginefake.Engine) { e.SetHelloProtocol(2) }, "another protocol"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, func(c *sandbox.Config) { c.StepRunner = tc.mode })
			tc.setup(f.eng)
			res, _ := f.run(context.Background(), f.request(fakeRunnerImage, nil, step("a", "true")))
			if res.Steps[0].Status != sandbox.StatusError || !strings.Contains(res.Steps[0].Reason, tc.reason) {
				t.Errorf("a = %s (%q), want ERROR mentioning %q", res.Steps[0].Status, res.Steps[0].Reason, tc.reason)
			}
		})
	}
}

// In auto mode a runner that does not start costs speed only: the
// sandbox is made again without it and every process is exec'd.
func TestFakeStaleRunnerFallsBackToExec(t *testing.T) {
	f := newFake(t, nil)
	f.eng.SetHelloProtocol(2)
	res, ev := f.run(context.Background(), f.request(fakeRunnerImage, nil, step("a", "echo fine")))
	if res.Steps[0].Status != sandbox.StatusOK || ev.text(0, sandbox.StreamStdout) != "fine\n" {
		t.Fatalf("a = %s (%q)", res.Steps[0].Status, res.Steps[0].Reason)
	}
	specs := f.eng.Specs()
	if len(specs) != 2 || !specs[0].OpenStdin || specs[1].OpenStdin || specs[1].User != "65534:65534" {
		t.Errorf("specs: %d, the second must be the keepalive one: %+v", len(specs), specs)
	}
	if p := stepProcs(f.eng)["echo fine"]; p.Runner {
		t.Errorf("the step ran through a runner after the fallback")
	}
}

// A step image the engine lacks fails only that image's steps, with the
// command that builds it; an upstream image is pulled when allowed.
func TestFakeMissingAndPulledImages(t *testing.T) {
	f := newFake(t, func(c *sandbox.Config) { c.PullMissing = true })
	f.eng.AddRemote(enginefake.NewImage("example.com/up:1", false))
	rust := step("rust", "true")
	rust.Image, rust.FailureScope = "greenlight/sandbox-rust:latest", "rust"
	up := step("up", "echo pulled")
	up.Image, up.FailureScope = "example.com/up:1", "up"
	gone := step("gone", "true")
	gone.Image, gone.FailureScope = "example.com/nope:1", "nope"
	res, ev := f.run(context.Background(), f.request(fakeRunnerImage, nil, rust, up, gone, step("main", "true")))
	want := []sandbox.Status{sandbox.StatusError, sandbox.StatusOK, sandbox.StatusError, sandbox.StatusSkipped}
	if got := statuses(res); !slices.Equal(got, want) {
		t.Fatalf("statuses %v, want %v", got, want)
	}
	if !strings.Contains(res.Steps[0].Reason, "make images IMAGES=rust") {
		t.Errorf("rust's reason %q", res.Steps[0].Reason)
	}
	if !strings.Contains(res.Steps[2].Reason, "pulling it failed") {
		t.Errorf("gone's reason %q", res.Steps[2].Reason)
	}
	if ev.text(1, sandbox.StreamStdout) != "pulled\n" || len(f.eng.CallsOf(enginefake.OpPull)) != 2 {
		t.Errorf("up printed %q after %d pulls", ev.text(1, sandbox.StreamStdout), len(f.eng.CallsOf(enginefake.OpPull)))
	}
}
