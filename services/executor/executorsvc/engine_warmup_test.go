package executorsvc

import (
	"context"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// describingRuntime answers Engine and List only, and says when the
// engine was first described.
type describingRuntime struct {
	sandbox.Runtime
	described chan struct{}
}

func (d *describingRuntime) Engine(context.Context) (sandbox.EngineInfo, error) {
	select {
	case d.described <- struct{}{}:
	default:
	}
	return sandbox.EngineInfo{Version: "test", Init: true}, nil
}

func (d *describingRuntime) List(context.Context, string) ([]sandbox.ContainerInfo, error) {
	return nil, nil
}

// The executor describes its engine as it starts, before any RPC asks:
// the first run's preflight and the loop's first capacity poll then find
// the answer (or the call in flight) instead of waiting for the engine's
// version call (10-20 ms of a one-shot verify's critical path).
func TestExecutorDescribesTheEngineAtStart(t *testing.T) {
	rt := &describingRuntime{described: make(chan struct{}, 1)}
	cfg := testConfig(t)
	cfg.EgressPolicy = EgressOff
	svc, err := newService(cfg, testenv.Blobs(t), testenv.Logger(t), rt, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = svc.Close() }()
	select {
	case <-rt.described:
	case <-time.After(time.Minute): // a guard against hanging, not a measurement
		t.Fatal("the executor did not describe its engine at start")
	}
}
