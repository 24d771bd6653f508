package runtimetest

import (
	"context"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// recorder passes every call to the driver and keeps the specs of the
// containers created through it.
type recorder struct {
	sandbox.Runtime
	mu    sync.Mutex
	specs []sandbox.ContainerSpec
}

// Create records spec and creates the container.
func (r *recorder) Create(ctx context.Context, spec sandbox.ContainerSpec) (string, error) {
	r.mu.Lock()
	r.specs = append(r.specs, cloneSpec(spec))
	r.mu.Unlock()
	return r.Runtime.Create(ctx, spec)
}

// captureSpecs runs a one-step pipeline (a test step: no network)
// through a real sandbox.Runner on h's driver in both step runner modes
// and returns the specs the Runner created its containers with: the
// sandbox's hardening as production applies it (defaults, limits, env,
// labels), not a copy written here.
func captureSpecs(t *testing.T, h Harness) (exec, runner sandbox.ContainerSpec) {
	t.Helper()
	return captureSpec(t, h, sandbox.StepRunnerExec), captureSpec(t, h, sandbox.StepRunnerAgent)
}

// captureSpec is captureSpecs for one step runner mode.
func captureSpec(t *testing.T, h Harness, mode string) sandbox.ContainerSpec {
	t.Helper()
	rec := &recorder{Runtime: h.Runtime}
	cfg := sandbox.DefaultConfig()
	cfg.TempDir, cfg.StepRunner, cfg.CleanupTimeout = t.TempDir(), mode, 10*time.Second
	blobs := testenv.Blobs(t)
	r, err := sandbox.NewRunner(cfg, rec, blobs, sandbox.WithLogger(testenv.Logger(t)))
	if err != nil {
		t.Fatalf("NewRunner: %v", err)
	}
	owner := testenv.Owner(t) + "-" + mode
	req := sandbox.Request{
		RunID: "conformance-" + mode, Owner: owner, Image: h.Image,
		Snapshot: testenv.Snapshot(t, blobs, map[string]testenv.File{"README": {Body: "conformance\n"}}),
		Steps:    []sandbox.Step{{Name: "test", Command: "cat README"}},
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := r.Run(ctx, req, func(sandbox.Event) error { return nil })
	r.Wait()
	testenv.WaitNoContainers(t, h.Runtime, owner, 10*time.Second)
	if err != nil || len(res.Steps) != 1 || res.Steps[0].Status != sandbox.StatusOK {
		t.Fatalf("a %s-mode run on the driver did not pass: %v %+v", mode, err, res)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.specs) != 1 {
		t.Fatalf("a one-step %s-mode run created %d containers, want 1", mode, len(rec.specs))
	}
	return rec.specs[0]
}

// cloneSpec deep-copies a spec.
func cloneSpec(s sandbox.ContainerSpec) sandbox.ContainerSpec {
	s.Entrypoint, s.Cmd, s.Env = slices.Clone(s.Entrypoint), slices.Clone(s.Cmd), slices.Clone(s.Env)
	s.CapDrop, s.CapAdd, s.SecurityOpt = slices.Clone(s.CapDrop), slices.Clone(s.CapAdd), slices.Clone(s.SecurityOpt)
	s.Labels, s.Tmpfs, s.Sysctls = maps.Clone(s.Labels), maps.Clone(s.Tmpfs), maps.Clone(s.Sysctls)
	return s
}
