package main

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/server"
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
	// Two steps of the project after greenlight's secret scan (advisory).
	if p0.GetImage() != "node:20-slim" || len(p0.GetSteps()) != 3 || p0.GetSteps()[0].GetName() != "secret-scan" || p0.GetSteps()[2].GetCommand() != "npm test" {
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

// TestBinaryRequiresServiceTokenOffLoopback: off loopback the binary
// refuses to start without the shared service token (exit 2, one line
// naming the variable); with one it answers Unauthenticated to a caller
// without it and serves a caller with it.
func TestBinaryRequiresServiceTokenOffLoopback(t *testing.T) {
	bin := servertest.Build(t, ".")
	blobs := t.TempDir()
	cmd := exec.Command(bin, "--addr=0.0.0.0:0", "--blob-dir="+blobs)
	cmd.Env = []string{}
	out, _ := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(string(out), "GREENLIGHT_DISCOVERY_SERVICE_TOKEN") ||
		strings.Count(string(out), "\n") != 1 {
		t.Fatalf("no token off loopback: exit %d, output %q; want 2 and one line naming the variable", code, out)
	}

	const token = "discovery-test-service-token-0123"
	p := servertest.Start(t, bin, "--addr=0.0.0.0:0", "--blob-dir="+blobs, "--service-token="+token)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req := &glv1.PlanRequest{Snapshot: &glv1.Digest{Hash: strings.Repeat("0", 64), SizeBytes: 1}}
	if _, err := glv1.NewDiscoveryServiceClient(p.Conn(t)).Plan(ctx, req); status.Code(err) != codes.Unauthenticated {
		t.Fatalf("Plan without the service token: %v, want Unauthenticated", err)
	}
	conn, err := server.Dial(p.Addr, server.DialServiceToken(token))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// Authenticated, the call reaches the service: the unknown snapshot is
	// its answer, not the token.
	if _, err := glv1.NewDiscoveryServiceClient(conn).Plan(ctx, req); status.Code(err) == codes.Unauthenticated || err == nil {
		t.Fatalf("Plan with the service token: %v, want the service's own error", err)
	}
}
