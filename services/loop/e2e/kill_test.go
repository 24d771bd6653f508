package e2e_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/server/servertest"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

// TestSIGKILLLoopMidRunWithRealExecutor kills the real loop binary while
// the real executor runs a 30 s test, restarts it, and checks that the run
// is INTERRUPTED with its events replayable, and that the executor, seeing
// its caller gone, destroyed the sandbox.
func TestSIGKILLLoopMidRunWithRealExecutor(t *testing.T) {
	integration(t)
	dataDir := t.TempDir()
	blobDir := filepath.Join(dataDir, "blobs")
	if err := os.MkdirAll(blobDir, 0o700); err != nil {
		t.Fatal(err)
	}
	disc := startGraceful(t, discoveryBin, "--blob-dir", blobDir)
	exe := startGraceful(t, executorBin, "--blob-dir", blobDir, "--pool-size", "0", "--cache-dir", t.TempDir())
	args := []string{"--data-dir", dataDir, "--discovery-addr", disc.Addr, "--executor-addr", exe.Addr}
	loop := servertest.Start(t, loopBin, args...)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	runs := glv1.NewRunServiceClient(loop.Conn(t))
	snap := enginetest.Snapshot(t, blob.NewClient(loop.Conn(t)), slowCalc())
	stream, err := runs.Verify(ctx, &glv1.VerifyRequest{Snapshot: snap})
	if err != nil {
		t.Fatal(err)
	}
	var before []*glv1.RunEvent
	for len(before) == 0 || before[len(before)-1].GetStepStarted().GetStep().GetName() != "pytest" {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatalf("Verify: %v", err)
		}
		before = append(before, resp.GetEvent())
	}
	runID := before[0].GetRunId()
	time.Sleep(time.Second) // let the test be well under way in the sandbox
	if sandboxes(t, runID) == "" {
		t.Fatal("no sandbox container carries the run's label while it runs")
	}
	if err := loop.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if _, err := loop.Wait(10 * time.Second); err != nil {
		t.Fatal(err)
	}

	loop = servertest.Start(t, loopBin, args...)
	runs = glv1.NewRunServiceClient(loop.Conn(t))
	got, err := runs.GetRun(ctx, &glv1.GetRunRequest{RunId: runID})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetRun().GetStatus() != glv1.RunStatus_RUN_STATUS_INTERRUPTED {
		t.Fatalf("status after restart: %s", got.GetRun().GetStatus())
	}
	watch, err := runs.WatchRun(ctx, &glv1.WatchRunRequest{RunId: runID, AfterSeq: 1})
	if err != nil {
		t.Fatal(err)
	}
	var replayed []*glv1.RunEvent
	for {
		resp, err := watch.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		replayed = append(replayed, resp.GetEvent())
	}
	if len(replayed) < len(before) || replayed[len(replayed)-1].GetRunFinished().GetStatus() != glv1.RunStatus_RUN_STATUS_INTERRUPTED {
		t.Fatalf("replayed %d events after seq 1, %d streamed before the kill", len(replayed), len(before))
	}
	// The executor saw its stream canceled and removed the sandbox.
	deadline := time.Now().Add(60 * time.Second)
	for sandboxes(t, runID) != "" {
		if time.Now().After(deadline) {
			t.Fatalf("sandbox of the killed run still there")
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// sandboxes lists the containers labeled with a run id.
func sandboxes(t *testing.T, runID string) string {
	t.Helper()
	out, err := exec.Command("docker", "ps", "-aq", "--filter", "label=greenlight.run="+runID).CombinedOutput()
	if err != nil {
		t.Fatalf("docker ps: %v\n%s", err, out)
	}
	return strings.TrimSpace(string(out))
}
