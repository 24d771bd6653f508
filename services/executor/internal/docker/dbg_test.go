package docker

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/pkg/stdcopy"
	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

func TestDebugExecPhases(t *testing.T) {
	rt, _ := New("", zap.NewNop())
	ctx := context.Background()
	id, err := rt.Create(ctx, sandbox.ContainerSpec{Image: "greenlight/sandbox-python:latest", Cmd: []string{"sleep", "100"}, Init: true, Labels: map[string]string{"greenlight.run": "dbg"}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Remove(ctx, id)
	rt.Start(ctx, id)
	for i := 0; i < 6; i++ {
		t0 := time.Now()
		resp, _ := rt.cli.ContainerExecCreate(ctx, id, container.ExecOptions{Cmd: []string{"true"}, AttachStdout: true, AttachStderr: true})
		t1 := time.Now()
		hj, _ := rt.cli.ContainerExecAttach(ctx, resp.ID, container.ExecAttachOptions{})
		t2 := time.Now()
		stdcopy.StdCopy(io.Discard, io.Discard, hj.Reader)
		t3 := time.Now()
		info, _ := rt.cli.ContainerExecInspect(ctx, resp.ID)
		t4 := time.Now()
		t.Logf("create %s attach %s stream %s inspect %s running=%v", t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), t4.Sub(t3), info.Running)
	}
}
