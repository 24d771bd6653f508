package loopsvc_test

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
	"github.com/greenlight-dev/greenlight/services/loop/loopsvc"
)

// fleetMember is a fake executor on a loopback port with health and
// capacity; lose makes it fail every execution after its first event, as
// an executor whose engine or process dies mid-run.
type fleetMember struct {
	*enginetest.Executor
	addr string
	lose bool
	// broken reports every step as one it could not run (an engine whose
	// containers will not start).
	broken bool
	max    int32 // 0: 4
}

func (m *fleetMember) Capacity(context.Context, *glv1.CapacityRequest) (*glv1.CapacityResponse, error) {
	max := m.max
	if max == 0 {
		max = 4
	}
	return &glv1.CapacityResponse{MaxSandboxes: max, Name: m.addr, EngineVersion: "20.10"}, nil
}

func (m *fleetMember) Execute(req *glv1.ExecuteRequest, s grpc.ServerStreamingServer[glv1.ExecuteResponse]) error {
	if m.broken {
		res := &glv1.StepResult{Name: "pytest", Status: glv1.StepStatus_STEP_STATUS_ERROR,
			Reason: "preparing the sandbox failed: container start: could not find bridge docker0"}
		return s.Send(&glv1.ExecuteResponse{RunId: req.GetRunId(), Event: &glv1.ExecuteResponse_Finished{Finished: &glv1.ExecuteFinished{
			Results: []*glv1.StepResult{res}}}})
	}
	if m.lose {
		_ = s.Send(&glv1.ExecuteResponse{RunId: req.GetRunId(), Event: &glv1.ExecuteResponse_StepStarted{StepStarted: &glv1.StepStarted{}}})
		return status.Error(codes.Unavailable, "connection to the Docker engine lost")
	}
	return m.Executor.Execute(req, s)
}

func serveMember(t *testing.T, m *fleetMember) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m.addr = lis.Addr().String()
	srv := grpc.NewServer()
	glv1.RegisterExecutorServiceServer(srv, m)
	healthpb.RegisterHealthServer(srv, health.NewServer())
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
}

// A loop whose --executor-addr lists two executors retries an execution
// that failed on one (an infrastructure failure) on the other: the run
// ends with its true verdict, an ExecutorRetry event and the retry in its
// result.
func TestFleetRetriesAnInfrastructureFailureElsewhere(t *testing.T) {
	t.Run("executor lost mid-run", func(t *testing.T) { testFleetRetry(t, func(m *fleetMember) { m.lose = true }) })
	t.Run("steps it could not run", func(t *testing.T) { testFleetRetry(t, func(m *fleetMember) { m.broken = true }) })
}

func testFleetRetry(t *testing.T, breakIt func(*fleetMember)) {
	var svc *loopsvc.Service
	blobsOf := func() enginetest.Blobs { return svc.Blobs() }
	bad := &fleetMember{Executor: enginetest.NewExecutor(lazyBlobs{blobsOf}, enginetest.CalcJudge)}
	breakIt(bad)
	// good has fewer sandboxes: once both are healthy, the bad one (more
	// free) is always chosen first.
	good := &fleetMember{Executor: enginetest.NewExecutor(lazyBlobs{blobsOf}, enginetest.CalcJudge), max: 2}
	serveMember(t, bad)
	serveMember(t, good)
	cfg := loopsvc.DefaultConfig()
	cfg.DataDir = t.TempDir()
	cfg.ExecutorAddr = bad.addr + "," + good.addr
	disc := enginetest.NewDiscovery(enginetest.CalcSteps()...)
	dconn := enginetest.Serve(t, func(s *grpc.Server) { glv1.RegisterDiscoveryServiceServer(s, disc) })
	var err error
	svc, err = loopsvc.New(context.Background(), cfg, zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel)),
		loopsvc.WithDiscovery(glv1.NewDiscoveryServiceClient(dconn)), loopsvc.WithStoreOptions(store.Options{NoSync: true}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	conn := enginetest.Serve(t, func(s *grpc.Server) { svc.Register(s) })
	e := &env{t: t, svc: svc, runs: glv1.NewRunServiceClient(conn), blobs: blob.NewClient(conn)}

	// Until both executors answered their first health and capacity
	// checks, a run may go to the good one directly: run until one met
	// the bad one.
	for i := 0; i < 40; i++ {
		evs := e.verify(&glv1.VerifyRequest{Snapshot: e.snapshot(enginetest.CalcFiles)})
		fin := evs[len(evs)-1].GetRunFinished()
		var retry *glv1.ExecutorRetry
		for _, ev := range evs {
			if r := ev.GetExecutorRetry(); r != nil {
				retry = r
			}
		}
		// CalcFiles has a failing test: the true verdict is FAIL, never ERROR.
		if fin.GetStatus() != glv1.RunStatus_RUN_STATUS_FAILED {
			t.Fatalf("run %d finished %s: %s", i, fin.GetStatus(), fin.GetResult().GetSummary())
		}
		res := fin.GetResult()
		if res.GetManifest().GetPlatform().GetExecutor() != good.addr {
			t.Fatalf("run %d ran on %q, want the good executor %s", i, res.GetManifest().GetPlatform().GetExecutor(), good.addr)
		}
		if retry != nil {
			if retry.GetFailedExecutor() != bad.addr || len(res.GetInfraRetries()) != 1 {
				t.Fatalf("retry %v, result retries %v", retry, res.GetInfraRetries())
			}
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("no verification was ever placed on the failing executor")
}

// An embedding process's single executor (WithExecutorConn) queues runs
// beyond its capacity: every one finishes with its verdict, and the ones
// that waited were told their position.
func TestEmbeddedExecutorQueuesBeyondItsCapacity(t *testing.T) {
	var svc *loopsvc.Service
	blobsOf := func() enginetest.Blobs { return svc.Blobs() }
	one := &fleetMember{Executor: enginetest.NewExecutor(lazyBlobs{blobsOf}, enginetest.CalcJudge), max: 1}
	serveMember(t, one)
	execConn, err := grpc.NewClient(one.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = execConn.Close() })
	cfg := loopsvc.DefaultConfig()
	cfg.DataDir = t.TempDir()
	disc := enginetest.NewDiscovery(enginetest.Step("slow", glv1.Tier_TIER_0, glv1.Phase_PHASE_TEST, 0, 300*time.Millisecond))
	dconn := enginetest.Serve(t, func(s *grpc.Server) { glv1.RegisterDiscoveryServiceServer(s, disc) })
	svc, err = loopsvc.New(context.Background(), cfg, zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel)),
		loopsvc.WithDiscovery(glv1.NewDiscoveryServiceClient(dconn)), loopsvc.WithExecutorConn(execConn),
		loopsvc.WithStoreOptions(store.Options{NoSync: true}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	conn := enginetest.Serve(t, func(s *grpc.Server) { svc.Register(s) })
	e := &env{t: t, svc: svc, runs: glv1.NewRunServiceClient(conn), blobs: blob.NewClient(conn)}
	snap := e.snapshot(fixedFiles())
	var wg sync.WaitGroup
	var queued atomic.Int32
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			evs := e.verify(&glv1.VerifyRequest{Snapshot: snap})
			if st := evs[len(evs)-1].GetRunFinished().GetStatus(); st != glv1.RunStatus_RUN_STATUS_PASSED {
				t.Errorf("finished %s", st)
			}
			for _, ev := range evs {
				if ev.GetQueued() != nil {
					queued.Add(1)
					return
				}
			}
		}()
	}
	wg.Wait()
	if queued.Load() == 0 {
		t.Error("three runs on a one-sandbox executor: none was told it queued")
	}
}
