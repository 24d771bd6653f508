package loopsvc_test

import (
	"context"
	"io"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
	"github.com/greenlight-dev/greenlight/services/loop/loopsvc"
)

// env is a loop service served over bufconn, with fake discovery and
// executor services behind it.
type env struct {
	t     *testing.T
	svc   *loopsvc.Service
	runs  glv1.RunServiceClient
	blobs *blob.Client
	conn  grpc.ClientConnInterface
	disc  *enginetest.Discovery
	exec  *enginetest.Executor
}

func newEnv(t *testing.T, steps ...*glv1.Step) *env {
	t.Helper()
	return newEnvConfig(t, nil, steps...)
}

// newEnvConfig is newEnv with the loop's configuration changed by mod.
func newEnvConfig(t *testing.T, mod func(*loopsvc.Config), steps ...*glv1.Step) *env {
	t.Helper()
	cfg := loopsvc.DefaultConfig()
	cfg.DataDir = t.TempDir()
	if mod != nil {
		mod(&cfg)
	}
	e := &env{t: t, disc: enginetest.NewDiscovery(steps...)}
	log := zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel))
	// The executor stores logs in the loop's blob store, as the real one does.
	var svc *loopsvc.Service
	blobsOf := func() enginetest.Blobs { return svc.Blobs() }
	e.exec = enginetest.NewExecutor(lazyBlobs{blobsOf}, enginetest.CalcJudge)
	dconn := enginetest.Serve(t, func(s *grpc.Server) { glv1.RegisterDiscoveryServiceServer(s, e.disc) })
	econn := enginetest.Serve(t, func(s *grpc.Server) { glv1.RegisterExecutorServiceServer(s, e.exec) })
	svc, err := loopsvc.New(context.Background(), cfg, log,
		loopsvc.WithDiscovery(glv1.NewDiscoveryServiceClient(dconn)), loopsvc.WithExecutor(glv1.NewExecutorServiceClient(econn)),
		loopsvc.WithStoreOptions(store.Options{NoSync: true}))
	if err != nil {
		t.Fatal(err)
	}
	e.svc = svc
	conn := enginetest.Serve(t, func(s *grpc.Server) { svc.Register(s) })
	t.Cleanup(func() { _ = svc.Close() })
	e.runs = glv1.NewRunServiceClient(conn)
	e.blobs = blob.NewClient(conn)
	e.conn = conn
	return e
}

// lazyBlobs resolves the loop's blob store when first used.
type lazyBlobs struct{ get func() enginetest.Blobs }

func (l lazyBlobs) Open(ctx context.Context, d blob.Digest) (io.ReadCloser, error) {
	return l.get().Open(ctx, d)
}

func (l lazyBlobs) Put(ctx context.Context, r io.Reader) (blob.Digest, error) {
	return l.get().Put(ctx, r)
}

// snapshot uploads files through BlobService.
func (e *env) snapshot(files map[string]string) *glv1.Digest {
	return enginetest.Snapshot(e.t, e.blobs, files)
}

// ctx is a test context with a deadline.
func (e *env) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	e.t.Cleanup(cancel)
	return ctx
}

// verify runs Verify and collects the stream's events.
func (e *env) verify(req *glv1.VerifyRequest) []*glv1.RunEvent {
	e.t.Helper()
	stream, err := e.runs.Verify(e.ctx(), req)
	if err != nil {
		e.t.Fatal(err)
	}
	var evs []*glv1.RunEvent
	for {
		resp, err := stream.Recv()
		if err == io.EOF {
			return evs
		}
		if err != nil {
			e.t.Fatalf("Verify stream: %v (after %d events)", err, len(evs))
		}
		evs = append(evs, resp.GetEvent())
	}
}

// watch collects WatchRun's events.
func (e *env) watch(ctx context.Context, runID string, after uint64) ([]*glv1.RunEvent, error) {
	stream, err := e.runs.WatchRun(ctx, &glv1.WatchRunRequest{RunId: runID, AfterSeq: after})
	if err != nil {
		return nil, err
	}
	var evs []*glv1.RunEvent
	for {
		resp, err := stream.Recv()
		if err == io.EOF {
			return evs, nil
		}
		if err != nil {
			return evs, err
		}
		evs = append(evs, resp.GetEvent())
	}
}

// fixedFiles is CalcFiles with the bug fixed.
func fixedFiles() map[string]string {
	out := map[string]string{}
	for k, v := range enginetest.CalcFiles {
		out[k] = v
	}
	out["calc.py"] = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"
	return out
}
