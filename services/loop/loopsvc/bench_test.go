package loopsvc_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
	"github.com/greenlight-dev/greenlight/services/loop/loopsvc"
)

// benchChunks is how many log chunks the benchmark run emits.
const benchChunks = 1000

// BenchmarkWatchRunDelivery measures event throughput: a run whose step
// prints benchChunks log chunks as fast as the executor sends them, with 1
// or 100 WatchRun watchers attached over gRPC on loopback from its first
// event. It reports the rate events were persisted (store append, fsync on
// unless nosync), the rate they were delivered (events × watchers over the
// time until the last watcher saw RunFinished) and delivered-per-watcher
// over persisted, all measured in the same run.
func BenchmarkWatchRunDelivery(b *testing.B) {
	for _, sync := range []bool{true, false} {
		for _, watchers := range []int{1, 100} {
			b.Run(fmt.Sprintf("fsync=%t/watchers=%d", sync, watchers), func(b *testing.B) {
				benchDelivery(b, sync, watchers)
			})
		}
	}
}

func benchDelivery(b *testing.B, fsync bool, watchers int) {
	chatty := enginetest.Step("chatty", glv1.Tier_TIER_0, glv1.Phase_PHASE_TEST, 0, 0)
	chatty.Env["FAKE_LOG"] = strings.Repeat("x", 80*benchChunks)
	chatty.Env["FAKE_CHUNKS"] = fmt.Sprint(benchChunks)
	runs, up := benchLoop(b, fsync, chatty)
	snap := enginetest.Snapshot(b, up, enginetest.CalcFiles)
	var events, delivered int
	var persistDur, deliverDur time.Duration
	for b.Loop() {
		n, p, d := deliverOnce(b, runs, snap, watchers)
		events += n
		delivered += n * watchers
		persistDur += p
		deliverDur += d
	}
	b.ReportMetric(float64(events)/persistDur.Seconds(), "persisted-events/s")
	b.ReportMetric(float64(delivered)/deliverDur.Seconds(), "delivered-events/s")
	b.ReportMetric((float64(delivered)/float64(watchers)/deliverDur.Seconds())/(float64(events)/persistDur.Seconds()), "per-watcher/persisted")
}

// deliverOnce runs one verification with watchers attached and returns
// its event count, the time from its first to its last stored event, and
// the time from its first event until every watcher had RunFinished.
func deliverOnce(b *testing.B, runs glv1.RunServiceClient, snap *glv1.Digest, watchers int) (int, time.Duration, time.Duration) {
	ctx := context.Background()
	stream, err := runs.Verify(ctx, &glv1.VerifyRequest{Snapshot: snap})
	if err != nil {
		b.Fatal(err)
	}
	first, err := stream.Recv()
	if err != nil {
		b.Fatal(err)
	}
	runID := first.GetEvent().GetRunId()
	var wg sync.WaitGroup
	counts := make([]int, watchers)
	for i := range watchers {
		wg.Go(func() {
			w, err := runs.WatchRun(ctx, &glv1.WatchRunRequest{RunId: runID})
			if err != nil {
				b.Error(err)
				return
			}
			for {
				if _, err := w.Recv(); err != nil {
					if err != io.EOF {
						b.Error(err)
					}
					return
				}
				counts[i]++
			}
		})
	}
	var last *glv1.RunEvent
	for {
		resp, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		last = resp.GetEvent()
	}
	wg.Wait()
	done := time.Now()
	start := first.GetEvent().GetTime().AsTime()
	for i, c := range counts {
		if c != int(last.GetSeq()) {
			b.Fatalf("watcher %d got %d events of %d", i, c, last.GetSeq())
		}
	}
	return int(last.GetSeq()), last.GetTime().AsTime().Sub(start), done.Sub(start)
}

// benchLoop serves a loop on loopback TCP with the fake services.
func benchLoop(b *testing.B, fsync bool, steps ...*glv1.Step) (glv1.RunServiceClient, *blob.Client) {
	cfg := loopsvc.DefaultConfig()
	cfg.DataDir = b.TempDir()
	blobs, err := blob.NewStore(cfg.DataDir + "/blobs")
	if err != nil {
		b.Fatal(err)
	}
	exec := enginetest.NewExecutor(blobs, enginetest.CalcJudge)
	dconn := enginetest.Serve(b, func(s *grpc.Server) { glv1.RegisterDiscoveryServiceServer(s, enginetest.NewDiscovery(steps...)) })
	econn := enginetest.Serve(b, func(s *grpc.Server) { glv1.RegisterExecutorServiceServer(s, exec) })
	svc, err := loopsvc.New(context.Background(), cfg, zap.NewNop(),
		loopsvc.WithDiscovery(glv1.NewDiscoveryServiceClient(dconn)), loopsvc.WithExecutor(glv1.NewExecutorServiceClient(econn)),
		loopsvc.WithStoreOptions(store.Options{NoSync: !fsync}))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = svc.Close() })
	addr := enginetest.ServeTCP(b, func(s *grpc.Server) { svc.Register(s) })
	conn, err := server.Dial(addr)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.Close() })
	return glv1.NewRunServiceClient(conn), blob.NewClient(conn)
}
