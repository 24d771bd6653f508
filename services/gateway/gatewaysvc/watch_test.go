package gatewaysvc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/loopfake"
)

// readAll receives a watch stream to its end.
func readAll(stream grpc.ServerStreamingClient[glv1.WatchRunResponse]) ([]*glv1.RunEvent, error) {
	var evs []*glv1.RunEvent
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return evs, nil
		}
		if err != nil {
			return evs, err
		}
		evs = append(evs, resp.GetEvent())
	}
}

func logLines(n, size int) []*glv1.RunEvent {
	evs := make([]*glv1.RunEvent, n)
	for i := range evs {
		evs[i] = loopfake.LogEvent(3, "go-test", fmt.Sprintf("%06d %s\n", i, strings.Repeat("x", size)))
	}
	return evs
}

func TestHundredGRPCWatchersCostOneUpstreamStream(t *testing.T) {
	g := startGateway(t, func(c *Config, _ *server.Config) { c.RateLimit = 0 })
	g.loop.Emit("run-1", loopfake.Created("run-1"))
	ctx := testContext(t)
	const watchers = 100
	type result struct {
		evs []*glv1.RunEvent
		err error
	}
	results := make(chan result, watchers)
	for range watchers {
		stream, err := g.runs.WatchRun(ctx, &glv1.WatchRunRequest{RunId: "run-1"})
		if err != nil {
			t.Fatal(err)
		}
		first, err := stream.Recv() // attached: RunCreated replayed
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			rest, err := readAll(stream)
			results <- result{append([]*glv1.RunEvent{first.GetEvent()}, rest...), err}
		}()
	}
	live := logLines(200, 100)
	g.loop.Emit("run-1", live...)
	g.loop.Emit("run-1", loopfake.Finished(glv1.RunStatus_RUN_STATUS_PASSED, &glv1.Result{Status: glv1.Verdict_VERDICT_PASS}))
	for i := range watchers {
		r := <-results
		if r.err != nil {
			t.Fatalf("watcher %d: %v", i, r.err)
		}
		if len(r.evs) != 202 {
			t.Fatalf("watcher %d got %d events, want 202", i, len(r.evs))
		}
		for j, ev := range r.evs {
			if ev.GetSeq() != uint64(j+1) {
				t.Fatalf("watcher %d: event %d has seq %d", i, j, ev.GetSeq())
			}
		}
		if r.evs[201].GetRunFinished() == nil {
			t.Fatalf("watcher %d: last event is not RunFinished", i)
		}
	}
	if got := g.loop.WatchCalls(); got != 1 {
		t.Fatalf("upstream WatchRun calls = %d, want 1", got)
	}
}

func TestStalledGRPCWatcherGetsResumeFromAndCanResume(t *testing.T) {
	g := startGateway(t, func(c *Config, _ *server.Config) {
		c.RateLimit, c.WatchWindow, c.WatchStallTimeout = 0, 16, 300*time.Millisecond
	})
	g.loop.Emit("run-1", loopfake.Created("run-1"))
	ctx := testContext(t)

	// A fixed small window (no BDP growth) so that a client that stops
	// reading really stalls the gateway's Send.
	slowConn := g.dial(t, grpc.WithInitialWindowSize(64<<10), grpc.WithInitialConnWindowSize(64<<10))
	slow, err := glv1.NewRunServiceClient(slowConn).WatchRun(ctx, &glv1.WatchRunRequest{RunId: "run-1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := slow.Recv(); err != nil {
		t.Fatal(err)
	}
	fast, err := g.runs.WatchRun(ctx, &glv1.WatchRunRequest{RunId: "run-1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fast.Recv(); err != nil {
		t.Fatal(err)
	}

	g.loop.Emit("run-1", logLines(300, 8<<10)...) // 2.4 MB: far beyond the slow client's window
	g.loop.Emit("run-1", loopfake.Finished(glv1.RunStatus_RUN_STATUS_PASSED, &glv1.Result{}))
	rest, err := readAll(fast)
	if err != nil || len(rest) != 301 {
		t.Fatalf("fast watcher got %d events, %v; want 301 and a clean end; last %v", len(rest), err, rest[len(rest)-1])
	}

	// Now the slow client reads what was sent to it before it was dropped.
	got, err := readAll(slow)
	if err != nil {
		t.Fatalf("slow watcher ended with %v, want OK after ResumeFrom", err)
	}
	last := got[len(got)-1].GetResumeFrom()
	if last == nil {
		t.Fatalf("slow watcher's last event = %v, want ResumeFrom", got[len(got)-1])
	}
	for i, ev := range got[:len(got)-1] {
		if ev.GetSeq() != uint64(i+2) {
			t.Fatalf("slow watcher event %d has seq %d, want %d", i, ev.GetSeq(), i+2)
		}
	}
	if want := uint64(len(got)); last.GetAfterSeq() != want {
		t.Fatalf("ResumeFrom.after_seq = %d, want %d (the last seq delivered)", last.GetAfterSeq(), want)
	}
	// Resuming from there delivers exactly the rest.
	again, err := g.runs.WatchRun(ctx, &glv1.WatchRunRequest{RunId: "run-1", AfterSeq: last.GetAfterSeq()})
	if err != nil {
		t.Fatal(err)
	}
	tail, err := readAll(again)
	if err != nil || len(tail) == 0 || tail[0].GetSeq() != last.GetAfterSeq()+1 || tail[len(tail)-1].GetSeq() != 302 {
		t.Fatalf("resumed watch = %d events, %v; want seq %d..302", len(tail), err, last.GetAfterSeq()+1)
	}
}

func TestWatchUnknownRunIsNotFound(t *testing.T) {
	g := startGateway(t, nil)
	stream, err := g.runs.WatchRun(testContext(t), &glv1.WatchRunRequest{RunId: "nope"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Recv(); status.Code(err) != codes.NotFound {
		t.Fatalf("Recv = %v, want NotFound", err)
	}
}

func TestWatchCancellationClosesTheUpstreamStream(t *testing.T) {
	g := startGateway(t, nil)
	g.loop.Emit("run-1", loopfake.Created("run-1"))
	ctx, cancel := context.WithCancel(testContext(t))
	stream, err := g.runs.WatchRun(ctx, &glv1.WatchRunRequest{RunId: "run-1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Recv(); err != nil {
		t.Fatal(err)
	}
	if got := g.loop.ActiveWatches(); got != 1 {
		t.Fatalf("active upstream watches = %d, want 1", got)
	}
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for g.loop.ActiveWatches() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the upstream WatchRun stayed open after the only watcher left")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
