package fleet

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// fakeExecutor is an executor whose executions hold until released.
type fakeExecutor struct {
	glv1.UnimplementedExecutorServiceServer
	max     int32
	running atomic.Int32
	served  atomic.Int32
	hold    chan struct{} // closed: executions finish
	health  *health.Server
	addr    string
	srv     *grpc.Server
}

func (x *fakeExecutor) Capacity(context.Context, *glv1.CapacityRequest) (*glv1.CapacityResponse, error) {
	return &glv1.CapacityResponse{MaxSandboxes: x.max, Running: x.running.Load(), Name: x.addr, EngineVersion: "20.10"}, nil
}

func (x *fakeExecutor) Execute(req *glv1.ExecuteRequest, s grpc.ServerStreamingServer[glv1.ExecuteResponse]) error {
	if x.running.Add(1) > x.max {
		x.running.Add(-1)
		return status.Error(codes.ResourceExhausted, "full")
	}
	defer x.running.Add(-1)
	x.served.Add(1)
	if err := s.Send(&glv1.ExecuteResponse{RunId: req.GetRunId(), Event: &glv1.ExecuteResponse_StepStarted{StepStarted: &glv1.StepStarted{}}}); err != nil {
		return err
	}
	select {
	case <-x.hold:
	case <-s.Context().Done():
		return s.Context().Err()
	}
	return s.Send(&glv1.ExecuteResponse{RunId: req.GetRunId(), Event: &glv1.ExecuteResponse_Finished{Finished: &glv1.ExecuteFinished{}}})
}

func startFake(t *testing.T, max int32) *fakeExecutor {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	x := &fakeExecutor{max: max, hold: make(chan struct{}), health: health.NewServer(), addr: lis.Addr().String(), srv: grpc.NewServer()}
	glv1.RegisterExecutorServiceServer(x.srv, x)
	healthpb.RegisterHealthServer(x.srv, x.health)
	go func() { _ = x.srv.Serve(lis) }()
	t.Cleanup(x.srv.Stop)
	return x
}

func dialInsecure(addr string) (*grpc.ClientConn, error) {
	return grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
}

func newFleet(t *testing.T, opts Options, targets ...string) *Fleet {
	t.Helper()
	if opts.Poll == 0 {
		opts.Poll = 50 * time.Millisecond
	}
	f, err := New(targets, dialInsecure, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

// started runs Execute and waits for its first event.
func started(t *testing.T, ctx context.Context, f *Fleet) grpc.ServerStreamingClient[glv1.ExecuteResponse] {
	t.Helper()
	s, err := f.Execute(ctx, &glv1.ExecuteRequest{RunId: "r"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Recv(); err != nil {
		t.Fatal(err)
	}
	return s
}

func drain(s grpc.ServerStreamingClient[glv1.ExecuteResponse]) error {
	for {
		if _, err := s.Recv(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// waitHealthy waits until n members are healthy.
func waitHealthy(t *testing.T, f *Fleet, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for strings.Count(strings.Join(f.Members(), "\n"), "healthy=true") < n {
		if time.Now().After(deadline) {
			t.Fatalf("members %v: want %d healthy", f.Members(), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestPlacesOnTheExecutorWithTheMostFreeSandboxes(t *testing.T) {
	a, b := startFake(t, 1), startFake(t, 3)
	f := newFleet(t, Options{}, a.addr, b.addr)
	waitHealthy(t, f, 2)
	ctx := testCtx(t)
	var streams []grpc.ServerStreamingClient[glv1.ExecuteResponse]
	for i := 0; i < 4; i++ {
		streams = append(streams, started(t, ctx, f))
	}
	if a.served.Load() != 1 || b.served.Load() != 3 {
		t.Fatalf("served a=%d b=%d, want 1 and 3 (the fuller one last)", a.served.Load(), b.served.Load())
	}
	where := map[string]int{}
	for _, s := range streams {
		where[s.(Placed).Executor()]++
	}
	if where[a.addr] != 1 || where[b.addr] != 3 {
		t.Errorf("Executor() says %v", where)
	}
	close(a.hold)
	close(b.hold)
	for _, s := range streams {
		if err := drain(s); err != nil {
			t.Fatal(err)
		}
	}
}

func TestQueuesWhenEveryExecutorIsFull(t *testing.T) {
	a := startFake(t, 1)
	f := newFleet(t, Options{}, a.addr)
	ctx := testCtx(t)
	first := started(t, ctx, f)
	var mu sync.Mutex
	var positions []int
	qctx := WithQueueReport(ctx, func(pos, capacity int) {
		mu.Lock()
		defer mu.Unlock()
		positions = append(positions, pos*100+capacity)
	})
	done := make(chan error, 1)
	go func() {
		s, err := f.Execute(qctx, &glv1.ExecuteRequest{RunId: "second"})
		if err == nil {
			_, err = s.Recv()
		}
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("the second execution did not wait: %v", err)
	default:
	}
	close(a.hold) // the first finishes; the queued one gets its sandbox
	if err := drain(first); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(positions) == 0 || positions[0] != 101 { // position 1 of a capacity of 1
		t.Errorf("queue reports %v, want position 1 of capacity 1 first", positions)
	}
}

func TestAvoidAndHealth(t *testing.T) {
	a, b := startFake(t, 2), startFake(t, 2)
	f := newFleet(t, Options{NoneHealthy: 500 * time.Millisecond}, a.addr, b.addr)
	waitHealthy(t, f, 2)
	ctx := testCtx(t)
	s := started(t, Avoid(ctx, a.addr), f)
	if s.(Placed).Executor() != b.addr {
		t.Fatalf("Avoid(a) placed on %s", s.(Placed).Executor())
	}
	if !f.HasAlternative(b.addr) {
		t.Error("a is healthy: an alternative to b")
	}
	a.health.SetServingStatus("", healthpb.HealthCheckResponse_NOT_SERVING)
	deadline := time.Now().Add(5 * time.Second)
	for f.HasAlternative(b.addr) {
		if time.Now().After(deadline) {
			t.Fatalf("a still healthy after NOT_SERVING: %v", f.Members())
		}
		time.Sleep(20 * time.Millisecond)
	}
	_, err := f.Execute(Avoid(ctx, b.addr), &glv1.ExecuteRequest{})
	if status.Code(err) != codes.Unavailable || !strings.Contains(err.Error(), "not serving") || !strings.Contains(err.Error(), "previous attempt failed") {
		t.Errorf("nothing usable: %v", err)
	}
	a.srv.Stop() // gone altogether
	s2 := started(t, ctx, f)
	if s2.(Placed).Executor() != b.addr {
		t.Errorf("placed on %s with a gone", s2.(Placed).Executor())
	}
}

func TestADNSNameStandsForEveryAddress(t *testing.T) {
	a, b := startFake(t, 1), startFake(t, 1)
	_, pa, _ := net.SplitHostPort(a.addr)
	_, pb, _ := net.SplitHostPort(b.addr)
	if pa == pb {
		t.Skip("same port")
	}
	// Both fakes answer on 127.0.0.1 with different ports; the name
	// resolves to two loopback aliases on a's port, standing for a
	// headless service. Only 127.0.0.1 answers: one member healthy.
	f := newFleet(t, Options{Lookup: func(context.Context, string) ([]string, error) {
		return []string{"127.0.0.1", "127.0.0.2"}, nil
	}}, "executors.internal:"+pa)
	if got := len(f.Members()); got != 2 {
		t.Fatalf("members %v, want the name's two addresses", f.Members())
	}
	s := started(t, testCtx(t), f)
	if s.(Placed).Executor() != "127.0.0.1:"+pa {
		t.Errorf("placed on %s", s.(Placed).Executor())
	}
}

// legacyExecutor implements Execute only (no Capacity), as executors did
// before the fleet.
type legacyExecutor struct {
	glv1.UnimplementedExecutorServiceServer
}

func (legacyExecutor) Execute(req *glv1.ExecuteRequest, s grpc.ServerStreamingServer[glv1.ExecuteResponse]) error {
	return s.Send(&glv1.ExecuteResponse{RunId: req.GetRunId(), Event: &glv1.ExecuteResponse_Finished{Finished: &glv1.ExecuteFinished{}}})
}

func TestAnExecutorWithoutCapacityIsStillUsed(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	glv1.RegisterExecutorServiceServer(srv, legacyExecutor{})
	healthpb.RegisterHealthServer(srv, health.NewServer())
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	f := newFleet(t, Options{}, lis.Addr().String())
	s, err := f.Execute(testCtx(t), &glv1.ExecuteRequest{RunId: "r"})
	if err != nil {
		t.Fatal(err)
	}
	if err := drain(s); err != nil {
		t.Fatal(err)
	}
}

// engineDown is an executor that serves but whose engine does not answer.
type engineDown struct {
	glv1.UnimplementedExecutorServiceServer
}

func (engineDown) Capacity(context.Context, *glv1.CapacityRequest) (*glv1.CapacityResponse, error) {
	return &glv1.CapacityResponse{MaxSandboxes: 2}, nil
}

func (engineDown) Execute(*glv1.ExecuteRequest, grpc.ServerStreamingServer[glv1.ExecuteResponse]) error {
	return status.Error(codes.Unavailable, "container engine unavailable: Cannot connect to the Docker daemon at unix:///x.sock")
}

// With no executor whose engine answers, the execution goes to one that
// serves at once, so its precise error reaches the caller without a wait.
func TestAnExecutorWithoutItsEngineAnswersAtOnce(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	glv1.RegisterExecutorServiceServer(srv, engineDown{})
	healthpb.RegisterHealthServer(srv, health.NewServer())
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	f := newFleet(t, Options{NoneHealthy: time.Minute}, lis.Addr().String())
	start := time.Now()
	s, err := f.Execute(testCtx(t), &glv1.ExecuteRequest{RunId: "r"})
	if err == nil {
		err = drain(s)
	}
	if status.Code(err) != codes.Unavailable || !strings.Contains(err.Error(), "/x.sock") || time.Since(start) > 10*time.Second {
		t.Fatalf("after %s: %v", time.Since(start), err)
	}
}

// Two loops whose capacity views are stale (no poll since the start): the
// second one's execution lands on the executor the first one just filled,
// which refuses it as full before running anything; it is placed again on
// the other executor instead of failing.
func TestAFullRefusalIsPlacedAgain(t *testing.T) {
	x, y := startFake(t, 1), startFake(t, 1)
	first := newFleet(t, Options{Poll: time.Hour}, x.addr, y.addr)
	second := newFleet(t, Options{Poll: time.Hour}, x.addr, y.addr)
	waitHealthy(t, first, 2)
	waitHealthy(t, second, 2)
	ctx := testCtx(t)
	a := started(t, ctx, first)
	b := started(t, ctx, second)
	if a.(Placed).Executor() == b.(Placed).Executor() {
		t.Fatalf("both on %s", a.(Placed).Executor())
	}
	if x.served.Load() != 1 || y.served.Load() != 1 {
		t.Errorf("served x=%d y=%d, want one each", x.served.Load(), y.served.Load())
	}
	close(x.hold)
	close(y.hold)
	for _, s := range []grpc.ServerStreamingClient[glv1.ExecuteResponse]{a, b} {
		if err := drain(s); err != nil {
			t.Fatal(err)
		}
	}
}
