package executorsvc

import (
	"testing"
	"time"

	"go.uber.org/zap/zaptest"

	"github.com/greenlight-dev/greenlight/services/executor/internal/enginefake"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// fakeEnv is an env on enginefake instead of Docker: the service's logic
// without any engine. The Python image has greenlight-runner.
type fakeEnv struct {
	*env
	eng *enginefake.Engine
}

// newFakeEnv serves an executor on a new fake engine; every container
// must be gone once the service is closed.
func newFakeEnv(t *testing.T, mutate ...func(*Config)) *fakeEnv {
	t.Helper()
	return newFakeEnvEgress(t, nil, mutate...)
}

// newFakeEnvEgress is newFakeEnv whose egress instance host sets up (nil:
// no egress policy).
func newFakeEnvEgress(t *testing.T, host egressHost, mutate ...func(*Config)) *fakeEnv {
	t.Helper()
	eng, err := enginefake.New()
	if err != nil {
		t.Fatal(err)
	}
	eng.Add(enginefake.NewImage(testenv.PythonImage, true))
	rt := &countingRuntime{Runtime: eng}
	cfg := testConfig(t)
	cfg.StepRunner = ""
	for _, m := range mutate {
		m(&cfg)
	}
	blobs := testenv.Blobs(t)
	if f, ok := host.(*fakeEgress); ok {
		f.eng = eng
	}
	svc, err := newService(cfg, blobs, zaptest.NewLogger(t), rt, host, nil)
	if err != nil {
		t.Fatalf("newService: %v", err)
	}
	e := &fakeEnv{env: &env{t: t, rt: rt, blobs: blobs, svc: svc, owner: "fake-owner"}, eng: eng}
	e.client = newClient(serve(t, svc))
	t.Cleanup(func() {
		if err := svc.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if n := len(eng.Containers()); n != 0 {
			t.Errorf("%d containers left after Close", n)
		}
		if err := eng.Close(); err != nil {
			t.Errorf("closing the fake engine: %v", err)
		}
	})
	return e
}

// waitUntil waits (at most 10 s) until cond holds: background work (the
// pool's refills, a canceled run's end) has no event to wait on.
func waitUntil(t *testing.T, what string, cond func() bool) {
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
