package e2e_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/pkg/server/servertest"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
	"github.com/greenlight-dev/greenlight/services/loop/loopsvc"
)

// stack is the loop (in this process, on loopback) with the real
// discovery and executor binaries behind it. All three share the loop's
// blob directory (--blob-dir), the layout of a single-host deployment.
type stack struct {
	t     testing.TB
	runs  glv1.RunServiceClient
	blobs *blob.Client
	exec  glv1.ExecutorServiceClient
	disc  glv1.DiscoveryServiceClient
	// loopAddr serves RunService and BlobService.
	loopAddr string
	// dataDir holds the loop's run database and blobs.
	dataDir string
	// providerDir is where the loop's COMMAND profile "e2e" runs
	// provider.sh (see commandProvider).
	providerDir string
}

// newStack starts discovery and executor and a loop in front of them.
func newStack(t testing.TB) *stack { return newStackImages(t, "") }

// newStackImages is newStack with an image table override
// ("rust=IMAGE,...") given to discovery and executor alike.
func newStackImages(t testing.TB, images string) *stack { return newStackExec(t, images) }

// newPooledStack is newStack whose executor keeps a warm pool of two
// sandboxes per image, as `greenlight fix` and serve run it.
func newPooledStack(t testing.TB) *stack { return newStackExec(t, "", "--pool-size", "2") }

// newStackExec is newStackImages with extra executor flags.
func newStackExec(t testing.TB, images string, extra ...string) *stack {
	t.Helper()
	integration(t)
	dataDir := t.TempDir()
	blobDir := filepath.Join(dataDir, "blobs")
	if err := os.MkdirAll(blobDir, 0o700); err != nil {
		t.Fatal(err)
	}
	var discArgs, execArgs []string
	if images != "" {
		discArgs = []string{"--images", images}
		execArgs = []string{"--images", "python=greenlight/sandbox-python:latest,go=greenlight/sandbox-go:latest,node=greenlight/sandbox-node:latest," + images}
	}
	disc := startGraceful(t, discoveryBin, append([]string{"--blob-dir", blobDir}, discArgs...)...)
	execArgs = append(append([]string{"--blob-dir", blobDir, "--pool-size", "0", "--cache-dir", t.TempDir()}, execArgs...), extra...)
	exec := startGraceful(t, executorBin, execArgs...)
	cfg := loopsvc.DefaultConfig()
	cfg.DataDir, cfg.DiscoveryAddr, cfg.ExecutorAddr = dataDir, disc.Addr, exec.Addr
	providerDir := t.TempDir()
	cfg.ProviderProfiles = []loopsvc.ProviderProfile{{Name: "e2e", Kind: glv1.ProviderKind_PROVIDER_KIND_COMMAND,
		Command: "cd '" + providerDir + "' && sh provider.sh"}}
	s := serveLoop(t, cfg)
	s.providerDir = providerDir
	s.exec, s.disc = glv1.NewExecutorServiceClient(exec.Conn(t)), glv1.NewDiscoveryServiceClient(disc.Conn(t))
	return s
}

// serveLoop starts a loop with cfg on a loopback port and returns a stack
// whose clients talk to it.
func serveLoop(t testing.TB, cfg loopsvc.Config) *stack {
	t.Helper()
	svc, err := loopsvc.New(context.Background(), cfg, zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel)))
	if err != nil {
		t.Fatal(err)
	}
	addr := enginetest.ServeTCP(t, func(s *grpc.Server) { svc.Register(s) })
	t.Cleanup(func() { _ = svc.Close() })
	conn, err := server.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return &stack{t: t, runs: glv1.NewRunServiceClient(conn), blobs: blob.NewClient(conn), loopAddr: addr, dataDir: cfg.DataDir}
}

// startGraceful starts a service binary and stops it with SIGTERM at
// cleanup, so the executor removes what it created.
func startGraceful(t testing.TB, bin string, args ...string) *servertest.Process {
	t.Helper()
	p := servertest.Start(t, bin, args...)
	t.Cleanup(func() {
		_ = p.Signal(syscall.SIGTERM)
		_, _ = p.Wait(30 * time.Second)
	})
	return p
}

// ctx is a test context with a deadline.
func (s *stack) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	s.t.Cleanup(cancel)
	return ctx
}

// snapshot uploads files.
func (s *stack) snapshot(files map[string]string) *glv1.Digest {
	return enginetest.Snapshot(s.t, s.blobs, files)
}

// verify runs Verify to the end and returns the events.
func (s *stack) verify(req *glv1.VerifyRequest) []*glv1.RunEvent {
	s.t.Helper()
	stream, err := s.runs.Verify(s.ctx(), req)
	if err != nil {
		s.t.Fatal(err)
	}
	return drain(s.t, func() (*glv1.RunEvent, error) {
		r, err := stream.Recv()
		return r.GetEvent(), err
	})
}

// fix runs Fix with a non-client provider to the end.
func (s *stack) fix(start *glv1.FixStart) []*glv1.RunEvent {
	s.t.Helper()
	stream, err := s.runs.Fix(s.ctx())
	if err != nil {
		s.t.Fatal(err)
	}
	if err := stream.Send(&glv1.FixRequest{Msg: &glv1.FixRequest_Start{Start: start}}); err != nil {
		s.t.Fatal(err)
	}
	return drain(s.t, func() (*glv1.RunEvent, error) {
		r, err := stream.Recv()
		return r.GetEvent(), err
	})
}

// drain reads events until the stream ends.
func drain(t testing.TB, next func() (*glv1.RunEvent, error)) []*glv1.RunEvent {
	t.Helper()
	var evs []*glv1.RunEvent
	for {
		ev, err := next()
		if err == io.EOF {
			if len(evs) == 0 || evs[len(evs)-1].GetRunFinished() == nil {
				t.Fatalf("stream ended without RunFinished after %d events", len(evs))
			}
			return evs
		}
		if err != nil {
			t.Fatalf("stream: %v (after %d events)", err, len(evs))
		}
		evs = append(evs, ev)
	}
}

// finished returns the RunFinished event.
func finished(evs []*glv1.RunEvent) *glv1.RunFinished { return evs[len(evs)-1].GetRunFinished() }
