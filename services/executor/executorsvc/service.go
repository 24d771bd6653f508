// Package executorsvc is the executor's gRPC service: ExecutorService.Execute
// runs a pipeline in a hardened, throw-away Docker sandbox and streams what
// happens. New builds everything the service needs (Docker client, warm
// pool, dependency cache, reaper) so that the standalone binary and the
// embedded CLI wire it the same way.
//
// The handler is thin: validate → convert → sandbox.Runner.Run → convert,
// with errors mapped to status codes in one place (errors.go).
package executorsvc

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/services/executor/internal/artifact"
	"github.com/greenlight-dev/greenlight/services/executor/internal/depcache"
	"github.com/greenlight-dev/greenlight/services/executor/internal/docker"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// Blobs is the blob store the executor reads snapshots from and writes logs
// to: a local *blob.Store (embedded) or a *blob.Client (standalone).
type Blobs interface {
	Open(ctx context.Context, d blob.Digest) (io.ReadCloser, error)
	Put(ctx context.Context, r io.Reader) (blob.Digest, error)
}

// engineWarmup bounds the engine description asked at start, so a
// wedged engine delays the first sweep by no more.
const engineWarmup = 5 * time.Second

// Service implements greenlight.v1.ExecutorService.
type Service struct {
	glv1.UnimplementedExecutorServiceServer

	cfg    Config
	images map[string]string
	blobs  Blobs
	log    *zap.Logger
	rt     sandbox.Runtime
	closer io.Closer
	runner *sandbox.Runner
	pool   *sandbox.Pool
	reaper *sandbox.Reaper

	// allowed is what a pipeline may name: images plus cfg.AllowedImages.
	allowed image.AllowList

	egress     *egressSetup
	slots      *slots
	stopReaper context.CancelFunc
	reaperDone chan struct{}
	stop       chan struct{}
	background sync.WaitGroup
	closeOnce  sync.Once
}

var _ glv1.ExecutorServiceServer = (*Service)(nil)

// New builds the executor: a Docker client, or with RuntimeKubernetes a
// Kubernetes one (see newKube) (failing fast when the engine
// does not answer is left to each RPC, so the service starts even while the
// engine is down), the warm pool, the dependency cache and the reaper, which
// sweeps stale containers once now and then every cfg.ReapEvery. Close
// undoes all of it.
func New(cfg Config, blobs Blobs, log *zap.Logger) (*Service, error) {
	if cfg.Runtime == RuntimeKubernetes {
		return newKube(cfg, blobs, log)
	}
	rt, err := docker.New(cfg.DockerHost, log)
	if err != nil {
		return nil, err
	}
	s, err := newService(cfg, blobs, log, rt, hostEgress{nets: rt}, rt)
	if err != nil {
		_ = rt.Close()
		return nil, err
	}
	return s, nil
}

// newService builds the service on any runtime (tests wrap the real one);
// host (nil: no egress policy) sets up the egress instance.
func newService(cfg Config, blobs Blobs, log *zap.Logger, rt sandbox.Runtime, host egressHost, closer io.Closer) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("executor config: %w", err)
	}
	images, _ := cfg.imageTable()
	self := sandbox.SelfIdentity()
	opts := []sandbox.Option{sandbox.WithLogger(log), sandbox.WithIdentity(self)}
	if cfg.CacheDir != "" {
		cache, err := depcache.Open(cfg.CacheDir, int64(cfg.CacheMaxBytes), int64(cfg.CacheMaxEntry), cfg.CacheMaxAge)
		if err != nil {
			return nil, err
		}
		opts = append(opts, sandbox.WithDepCache(cache))
	}
	s := &Service{cfg: cfg, images: images, allowed: cfg.allowList(), blobs: blobs, log: log, rt: rt, closer: closer, stop: make(chan struct{}),
		slots: &slots{max: cfg.MaxSandboxes}}
	sc := cfg.sandboxConfig()
	network, eg, err := applyEgress(cfg, host, self, log, s.stop, &s.background)
	if err != nil {
		return nil, err
	}
	s.egress = eg
	sc.EgressNetwork = network
	boxes := rt // the runtime sandboxes are created with
	if cfg.EgressOnDemand && eg != nil {
		boxes = egressRuntime{Runtime: rt, e: eg}
	}
	if cfg.PoolSize > 0 {
		s.pool = sandbox.NewPool(boxes, sc, self, cfg.PoolSize, log)
		// Only the configured table's images are pooled: an image a
		// pipeline names (even an allowed one) is served cold.
		s.pool.Only(slices.Collect(maps.Values(images))...)
		opts = append(opts, sandbox.WithPool(s.pool))
	}
	if s.runner, err = sandbox.NewRunner(sc, boxes, blobs, opts...); err != nil {
		close(s.stop)
		s.background.Wait()
		s.egress.release()
		return nil, err
	}
	// The reaper sweeps once now (what a killed predecessor left) and then
	// every ReapEvery. First the engine is described once, so that the
	// first run's preflight and the loop's first capacity poll find the
	// answer (or the call in flight) instead of asking from scratch.
	s.reaper, s.reaperDone = sandbox.NewReaper(rt, self, log), make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	s.stopReaper = cancel
	go func() {
		defer close(s.reaperDone)
		ectx, done := context.WithTimeout(ctx, engineWarmup)
		_, _ = rt.Engine(ectx)
		done()
		s.sweep(ctx, cfg.ReapEvery)
	}()
	return s, nil
}

// sweep removes what dead executors left, now and every period until ctx
// ends: stale containers first, then the egress instances their
// containers no longer hold.
func (s *Service) sweep(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := s.reaper.Sweep(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("reaper sweep failed", zap.Error(err))
		}
		s.egress.sweep(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Register registers the service on a gRPC server.
func (s *Service) Register(g *grpc.Server) { glv1.RegisterExecutorServiceServer(g, s) }

// Warm fills the warm pool for every configured image the engine has, in
// the background (images that are missing are skipped silently: their runs
// will say how to get them).
func (s *Service) Warm(ctx context.Context) {
	// On Kubernetes every sandbox image of the cluster is "present", and a
	// warm pod holds its CPU and memory requests on a node: images join
	// the pool only once a run uses them, as they do on Docker for images
	// pulled later.
	if s.pool == nil || s.cfg.Runtime == RuntimeKubernetes {
		return
	}
	seen := map[string]bool{}
	for _, ref := range s.images {
		if seen[ref] {
			continue
		}
		seen[ref] = true
		if img, err := s.rt.Image(ctx, ref); err == nil {
			s.pool.Warm(img)
		}
	}
}

// Close stops the reaper, removes the warm pool's containers, waits for
// the removal of finished runs' containers and removes the egress
// instance (when no other service of the process uses it), so that a
// one-shot process leaves nothing behind.
func (s *Service) Close() error {
	var err error
	s.closeOnce.Do(func() {
		close(s.stop)
		s.background.Wait()
		s.stopReaper()
		<-s.reaperDone
		s.pool.Close()
		s.runner.Wait()
		// The run and pool containers are gone: the egress network can go.
		s.egress.release()
		if s.closer != nil {
			err = s.closer.Close()
		}
	})
	return err
}

// Execute runs a pipeline and streams its events; the stream's context
// cancels the run.
func (s *Service) Execute(req *glv1.ExecuteRequest, stream grpc.ServerStreamingServer[glv1.ExecuteResponse]) error {
	ctx := stream.Context()
	log := s.log.With(zap.String("run_id", req.GetRunId()))
	sreq, err := toRequest(req, s.images)
	if err == nil {
		err = checkImages(sreq, s.allowed)
	}
	if err != nil {
		log.Info("execution refused", zap.Error(err))
		return toStatus(err)
	}
	if err := s.slots.acquire(); err != nil {
		log.Info("execution refused", zap.Error(err))
		return err
	}
	defer s.slots.release()
	runID := req.GetRunId()
	res, err := s.runner.Run(ctx, sreq, func(ev sandbox.Event) error {
		return stream.Send(toResponse(runID, req.GetPipeline(), ev))
	})
	if err != nil {
		log.Info("execution refused", zap.Error(err))
		return toStatus(err)
	}
	fin, err := s.finished(ctx, req, res)
	if err != nil {
		return toStatus(err)
	}
	if err := stream.Send(&glv1.ExecuteResponse{RunId: runID, Event: &glv1.ExecuteResponse_Finished{Finished: fin}}); err != nil {
		if ctx.Err() != nil {
			return toStatus(ctx.Err())
		}
		return err
	}
	return nil
}

// finished builds the last event: manifest, results, logs and artifacts.
func (s *Service) finished(ctx context.Context, req *glv1.ExecuteRequest, res *sandbox.Result) (*glv1.ExecuteFinished, error) {
	results := make([]*glv1.StepResult, len(res.Steps))
	for i := range res.Steps {
		results[i] = toStepResult(&res.Steps[i], req.GetPipeline().GetSteps()[i])
	}
	m := toManifest(res, results)
	combined := res.CombinedLog.Proto()
	var reports []*glv1.Artifact
	for _, r := range res.Reports {
		reports = append(reports, &glv1.Artifact{
			Path: artifact.ReportPath(r.Step, res.Steps[r.Step].Name, r.Path), Digest: r.Digest.Proto(),
		})
	}
	arts, err := artifact.Build(context.WithoutCancel(ctx), s.blobs, m, combined, results, reports)
	if err != nil {
		return nil, err
	}
	return &glv1.ExecuteFinished{Manifest: m, Results: results, CombinedLog: combined, Artifacts: arts}, nil
}

// WriteArtifacts materializes a run's artifacts (as listed in
// ExecuteFinished.artifacts) under dir in the ARTIFACT_DIR layout:
// dir/runs/<run_id>/manifest.json, logs/combined.log, logs/step-NN-<name>.log.
func WriteArtifacts(ctx context.Context, blobs Blobs, dir, runID string, arts []*glv1.Artifact) error {
	return artifact.Write(ctx, blobs, dir, runID, arts)
}
