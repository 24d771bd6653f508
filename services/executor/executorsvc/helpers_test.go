package executorsvc

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/executor/internal/docker"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// countingRuntime is the real runtime, counting the calls that would show
// that something ran.
type countingRuntime struct {
	sandbox.Runtime
	creates, execs atomic.Int64
}

func (c *countingRuntime) Create(ctx context.Context, spec sandbox.ContainerSpec) (string, error) {
	c.creates.Add(1)
	return c.Runtime.Create(ctx, spec)
}

func (c *countingRuntime) Exec(ctx context.Context, id string, spec sandbox.ExecSpec) (int, error) {
	c.execs.Add(1)
	return c.Runtime.Exec(ctx, id, spec)
}

// env is an executor served over bufconn on the real engine.
type env struct {
	t      *testing.T
	rt     *countingRuntime
	blobs  *blob.Store
	svc    *Service
	client glv1.ExecutorServiceClient
	owner  string
}

// testConfig is the configuration of the tests: no pool (pool tests turn it
// on), a private dependency cache, the reaper off the test's way.
func testConfig(t *testing.T) Config {
	cfg := DefaultConfig("")
	cfg.PoolSize = 0
	cfg.CacheDir = t.TempDir()
	cfg.TempDir = t.TempDir()
	cfg.ReapEvery = time.Hour
	cfg.Owner = testenv.Owner(t) + "-pool"
	cfg.Images = append(cfg.Images, "python="+testenv.PythonImage)
	if m := testenv.StepRunner(); m != "" {
		cfg.StepRunner = m
	}
	return cfg
}

func newEnv(t *testing.T, mutate ...func(*Config)) *env {
	t.Helper()
	docker := testenv.Docker(t)
	rt := &countingRuntime{Runtime: docker}
	cfg := testConfig(t)
	for _, m := range mutate {
		m(&cfg)
	}
	blobs := testenv.Blobs(t)
	svc, err := newService(cfg, blobs, testenv.Logger(t), rt, hostEgress{nets: docker}, nil)
	if err != nil {
		t.Fatalf("newService: %v", err)
	}
	e := &env{t: t, rt: rt, blobs: blobs, svc: svc, owner: testenv.Owner(t)}
	e.client = newClient(serve(t, svc))
	t.Cleanup(func() {
		if err := svc.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		testenv.WaitNoContainers(t, rt, e.owner, 10*time.Second)
		testenv.WaitNoContainers(t, rt, cfg.Owner, 10*time.Second)
	})
	return e
}

// serve serves svc on an in-memory listener and returns a client connection.
func serve(t *testing.T, svc *Service) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	g := grpc.NewServer()
	svc.Register(g)
	go func() { _ = g.Serve(lis) }()
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() {
		_ = conn.Close()
		g.Stop()
	})
	return conn
}

// snapshot stores a tar of files.
func (e *env) snapshot(files map[string]testenv.File) *glv1.Digest {
	if files == nil {
		files = map[string]testenv.File{"README": {Body: "hello\n"}}
	}
	return testenv.Snapshot(e.t, e.blobs, files).Proto()
}

// request is a Python-image request over files.
func (e *env) request(files map[string]testenv.File, steps ...*glv1.Step) *glv1.ExecuteRequest {
	return &glv1.ExecuteRequest{
		RunId: "run-" + strings.ReplaceAll(e.t.Name(), "/", "-"), Owner: e.owner, Snapshot: e.snapshot(files),
		Pipeline: &glv1.Pipeline{Runtime: "python", Steps: steps},
	}
}

// run is the outcome of one Execute call.
type run struct {
	events []*glv1.ExecuteResponse
	// at is when each event arrived.
	at       []time.Time
	finished *glv1.ExecuteFinished
	err      error
}

// execute runs req to the end.
func (e *env) execute(ctx context.Context, req *glv1.ExecuteRequest) *run {
	e.t.Helper()
	stream, err := e.client.Execute(ctx, req)
	if err != nil {
		return &run{err: err}
	}
	r := &run{}
	for {
		msg, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return r
		}
		if err != nil {
			r.err = err
			return r
		}
		r.events, r.at = append(r.events, msg), append(r.at, time.Now())
		if f := msg.GetFinished(); f != nil {
			r.finished = f
		}
	}
}

// mustExecute runs req and fails the test on an RPC error.
func (e *env) mustExecute(ctx context.Context, req *glv1.ExecuteRequest) *run {
	e.t.Helper()
	r := e.execute(ctx, req)
	if r.err != nil {
		e.t.Fatalf("Execute: %v", r.err)
	}
	if r.finished == nil {
		e.t.Fatalf("Execute ended without a finished event")
	}
	return r
}

// result returns the result of step i.
func (r *run) result(i int) *glv1.StepResult { return r.finished.GetResults()[i] }

// output concatenates the live stdout and stderr of step i.
func (r *run) output(i int) string {
	var sb strings.Builder
	for _, ev := range r.events {
		if c := ev.GetLogChunk(); c != nil && c.GetIndex() == int32(i) && c.GetStream() != glv1.Stream_STREAM_SYSTEM {
			sb.WriteString(c.GetData())
		}
	}
	return sb.String()
}

// stream concatenates the live output of step i on one stream.
func (r *run) stream(i int, s glv1.Stream) string {
	var sb strings.Builder
	for _, ev := range r.events {
		if c := ev.GetLogChunk(); c != nil && c.GetIndex() == int32(i) && c.GetStream() == s {
			sb.WriteString(c.GetData())
		}
	}
	return sb.String()
}

// readBlob reads a stored blob.
func (e *env) readBlob(d *glv1.Digest) string {
	e.t.Helper()
	dd, err := blob.DigestFromProto(d)
	if err != nil {
		e.t.Fatalf("digest: %v", err)
	}
	rc, err := e.blobs.Open(context.Background(), dd)
	if err != nil {
		e.t.Fatalf("open %s: %v", dd, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		e.t.Fatalf("read: %v", err)
	}
	return string(b)
}

// sh is a test step running a shell command.
func sh(name, cmd string) *glv1.Step {
	return &glv1.Step{Name: name, Phase: glv1.Phase_PHASE_TEST, Command: cmd}
}

// timeout sets a step's timeout.
func timeout(s *glv1.Step, d time.Duration) *glv1.Step {
	s.Timeout = durationpb.New(d)
	return s
}

// smallLimits makes adversarial steps hit the limits quickly.
func smallLimits(req *glv1.ExecuteRequest) *glv1.ExecuteRequest {
	req.Limits = &glv1.Limits{MemoryBytes: 128 << 20, Pids: 64, TmpfsBytes: 16 << 20, WorkspaceBytes: 16 << 20}
	return req
}

// statusOf shortens a step status for messages.
func statusOf(r *glv1.StepResult) string {
	return strings.TrimPrefix(r.GetStatus().String(), "STEP_STATUS_")
}

// cloneRequest deep-copies a request.
func cloneRequest(r *glv1.ExecuteRequest) *glv1.ExecuteRequest {
	return proto.Clone(r).(*glv1.ExecuteRequest)
}

// newClient returns an executor client on conn.
func newClient(conn *grpc.ClientConn) glv1.ExecutorServiceClient {
	return glv1.NewExecutorServiceClient(conn)
}

// testenvDocker returns the docker runtime.
func testenvDocker(t *testing.T) *docker.Runtime { return testenv.Docker(t) }
