package main

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// executor is a running greenlight-executor process.
type executor struct {
	cmd  *exec.Cmd
	addr string
}

// start runs the binary on a free port and waits until it serves.
func start(t *testing.T, bin string, args ...string) *executor {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	_ = lis.Close()
	cmd := exec.Command(bin, append([]string{"--addr", addr, "--log-format", "json", "--drain-delay", "0s"}, args...)...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			_ = c.Close()
			return &executor{cmd: cmd, addr: addr}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the executor does not listen on %s", addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Row 23: the executor is SIGKILLed mid-run (its run container and its warm
// pool are left behind); after a restart, its reaper removes them all.
func TestSIGKILLedExecutorIsReapedAtRestart(t *testing.T) {
	rt := testenv.Docker(t)
	bin := filepath.Join(t.TempDir(), "greenlight-executor")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	blobDir := t.TempDir()
	owner, poolOwner := testenv.Owner(t), testenv.Owner(t)+"-pool"
	common := []string{"--blob-dir", blobDir, "--cache-dir", "", "--images", "python=" + testenv.PythonImage,
		"--owner", poolOwner, "--reap-every", "1h"}
	if m := testenv.StepRunner(); m != "" {
		common = append(common, "--step-runner", m)
	}

	first := start(t, bin, append(common, "--pool-size", "1")...)
	snap := testenv.Snapshot(t, mustStore(t, blobDir), map[string]testenv.File{"README": {Body: "x"}})
	conn, err := grpc.NewClient(first.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	stream, err := glv1.NewExecutorServiceClient(conn).Execute(context.Background(), &glv1.ExecuteRequest{
		RunId: "sigkill", Owner: owner, Snapshot: snap.Proto(),
		Pipeline: &glv1.Pipeline{Runtime: "python", Steps: []*glv1.Step{{Name: "hang", Command: "echo started; sleep 600"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for {
		msg, err := stream.Recv()
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
		if strings.Contains(msg.GetLogChunk().GetData(), "started") {
			break
		}
	}
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = first.cmd.Wait()
	if n := len(testenv.Containers(t, rt, owner)); n != 1 {
		t.Fatalf("%d run containers right after SIGKILL, want the 1 left behind", n)
	}
	waitPool(t, rt, poolOwner)

	second := start(t, bin, append(common, "--pool-size", "0")...)
	testenv.WaitNoContainers(t, rt, owner, 15*time.Second)
	testenv.WaitNoContainers(t, rt, poolOwner, 15*time.Second)
	if err := second.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := second.cmd.Wait(); err != nil {
		t.Errorf("clean shutdown: %v", err)
	}
}

// waitPool waits until the killed executor's pool container exists (it is
// created in the background), so that the restart has it to reap.
func waitPool(t *testing.T, rt sandbox.Runtime, owner string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for len(testenv.Containers(t, rt, owner)) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no pool container of %s", owner)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// mustStore opens the blob store the executor uses.
func mustStore(t *testing.T, dir string) *blob.Store {
	t.Helper()
	s, err := blob.NewStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
