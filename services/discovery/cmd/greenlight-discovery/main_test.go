package main

import (
	"bytes"
	"context"
	"os/exec"
	"syscall"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/server/servertest"
	"github.com/greenlight-dev/greenlight/pkg/workspace"
)

// TestBinaryServesDiscovery runs the real binary on a loopback port with a
// local blob store and asks it to discover a packed fixture.
func TestBinaryServesDiscovery(t *testing.T) {
	blobs := t.TempDir()
	store, err := blob.NewStore(blobs)
	if err != nil {
		t.Fatal(err)
	}
	var tarball bytes.Buffer
	if _, err := workspace.Pack(context.Background(), "../../testdata/repos/node-test", &tarball, workspace.PackOptions{NoGit: true}); err != nil {
		t.Fatal(err)
	}
	d, err := store.Put(context.Background(), &tarball)
	if err != nil {
		t.Fatal(err)
	}
	bin := servertest.Build(t, ".")
	p := servertest.Start(t, bin, "--blob-dir="+blobs, "--images=node=node:20-slim")
	conn := p.Conn(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	servertest.RequireServing(t, ctx, conn, "greenlight.v1.DiscoveryService")
	resp, err := glv1.NewDiscoveryServiceClient(conn).Plan(ctx, &glv1.PlanRequest{Snapshot: d.Proto()})
	if err != nil {
		t.Fatal(err)
	}
	p0 := resp.GetPipeline()
	if p0.GetImage() != "node:20-slim" || len(p0.GetSteps()) != 2 || p0.GetSteps()[1].GetCommand() != "npm test" {
		t.Fatalf("pipeline = %v", p0)
	}
	if err := p.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code, err := p.Wait(10 * time.Second); err != nil || code != 0 {
		t.Fatalf("exit %d, %v", code, err)
	}
}

func TestBadFlagsExitWithUsage(t *testing.T) {
	bin := servertest.Build(t, ".")
	for _, args := range [][]string{{"--images=node"}, {"--blob-addr=nonsense"}, {"--max-files=0"}} {
		cmd := exec.Command(bin, args...)
		out, err := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != 2 {
			t.Errorf("%v: exit %d (%v), want 2\n%s", args, code, err, out)
		}
	}
}
