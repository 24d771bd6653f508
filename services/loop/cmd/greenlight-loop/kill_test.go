package main

import (
	"context"
	"io"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/server/servertest"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

// TestSIGKILLMidRunLeavesInterruptedRunWithItsEvents kills the real binary
// while a run executes, restarts it on the same data directory and checks
// that the run is INTERRUPTED with every event recorded before the kill,
// replayable through WatchRun.
func TestSIGKILLMidRunLeavesInterruptedRunWithItsEvents(t *testing.T) {
	dataDir := t.TempDir()
	// The fake executor shares the loop's blob directory, as a standalone
	// executor started with --blob-dir would.
	blobs, err := blob.NewStore(filepath.Join(dataDir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	slow := enginetest.Step("slow", glv1.Tier_TIER_0, glv1.Phase_PHASE_TEST, 0, time.Hour)
	exec := enginetest.NewExecutor(blobs, enginetest.CalcJudge)
	discAddr := enginetest.ServeTCP(t, func(s *grpc.Server) {
		glv1.RegisterDiscoveryServiceServer(s, enginetest.NewDiscovery(enginetest.Step("build", glv1.Tier_TIER_0, glv1.Phase_PHASE_BUILD, 0, 0), slow))
	})
	execAddr := enginetest.ServeTCP(t, func(s *grpc.Server) { glv1.RegisterExecutorServiceServer(s, exec) })
	args := []string{"--data-dir", dataDir, "--discovery-addr", discAddr, "--executor-addr", execAddr}

	p := servertest.Start(t, bin, args...)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	runs := glv1.NewRunServiceClient(p.Conn(t))
	snap := enginetest.Snapshot(t, blob.NewClient(p.Conn(t)), enginetest.CalcFiles)
	stream, err := runs.Verify(ctx, &glv1.VerifyRequest{Snapshot: snap})
	if err != nil {
		t.Fatal(err)
	}
	var before []*glv1.RunEvent
	for len(before) == 0 || before[len(before)-1].GetStepStarted().GetStep().GetName() != "slow" {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatalf("Verify stream: %v", err)
		}
		before = append(before, resp.GetEvent())
	}
	runID := before[0].GetRunId()
	if err := p.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Wait(10 * time.Second); err != nil {
		t.Fatal(err)
	}

	p2 := servertest.Start(t, bin, args...)
	runs = glv1.NewRunServiceClient(p2.Conn(t))
	got, err := runs.GetRun(ctx, &glv1.GetRunRequest{RunId: runID})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetRun().GetStatus() != glv1.RunStatus_RUN_STATUS_INTERRUPTED || got.GetRun().GetError() != store.InterruptedMessage {
		t.Fatalf("after restart: status %s error %q", got.GetRun().GetStatus(), got.GetRun().GetError())
	}
	watch, err := runs.WatchRun(ctx, &glv1.WatchRunRequest{RunId: runID})
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
	if len(replayed) < len(before)+1 {
		t.Fatalf("replayed %d events, %d were streamed before the kill", len(replayed), len(before))
	}
	for i, ev := range before {
		if replayed[i].GetSeq() != ev.GetSeq() || replayed[i].GetRunId() != runID {
			t.Fatalf("event %d: replayed seq %d, streamed %d", i, replayed[i].GetSeq(), ev.GetSeq())
		}
	}
	last := replayed[len(replayed)-1].GetRunFinished()
	if last.GetStatus() != glv1.RunStatus_RUN_STATUS_INTERRUPTED {
		t.Fatalf("last replayed event %v", replayed[len(replayed)-1])
	}
}
