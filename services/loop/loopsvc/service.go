package loopsvc

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/events"
	"github.com/greenlight-dev/greenlight/services/loop/internal/fleet"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

// runStoreFile is the run database's file name under Config.DataDir.
const runStoreFile = "runs.db"

// Option changes how New wires the loop.
type Option func(*options)

type options struct {
	discovery glv1.DiscoveryServiceClient
	executor  glv1.ExecutorServiceClient
	// executorConn is WithExecutorConn's connection.
	executorConn *grpc.ClientConn
	providers    engine.ProviderFactory
	storeOpts    store.Options
	dialOpts     []grpc.DialOption
}

// WithDiscovery uses c instead of dialing Config.DiscoveryAddr (the
// embedded mode passes an in-process connection).
func WithDiscovery(c glv1.DiscoveryServiceClient) Option { return func(o *options) { o.discovery = c } }

// WithExecutor uses c instead of dialing Config.ExecutorAddr (c alone
// decides where executions go: no fleet, no queue).
func WithExecutor(c glv1.ExecutorServiceClient) Option { return func(o *options) { o.executor = c } }

// WithExecutorConn uses one executor over conn (an embedding process's
// in-process executor) through a fleet of one, so that runs beyond its
// capacity queue instead of failing. The caller closes conn.
func WithExecutorConn(conn *grpc.ClientConn) Option {
	return func(o *options) { o.executorConn = conn }
}

// WithProviders replaces the patch providers of Fix runs (all kinds but
// CLIENT, which the loop serves over the Fix stream itself).
func WithProviders(f engine.ProviderFactory) Option { return func(o *options) { o.providers = f } }

// WithDialOptions adds options to the connections New dials to discovery
// and executor (the binary passes the shared service token).
func WithDialOptions(opts ...grpc.DialOption) Option {
	return func(o *options) { o.dialOpts = append(o.dialOpts, opts...) }
}

// WithStoreOptions tunes the run store (tests and benchmarks turn off fsync).
func WithStoreOptions(so store.Options) Option { return func(o *options) { o.storeOpts = so } }

// Service is the loop's composition root: it owns the loop's resources and
// registers its gRPC services.
type Service struct {
	cfg    Config
	log    *zap.Logger
	blobs  *blob.Store
	runs   *store.Store
	hub    *events.Hub
	engine *engine.Engine
	run    glv1.RunServiceServer

	conns     []*grpc.ClientConn
	fleet     *fleet.Fleet // the executors, unless one was given (WithExecutor)
	stopPrune context.CancelFunc
	pruneDone chan struct{}
	closeOnce sync.Once
	closeErr  error
}

// New builds the loop from cfg: it opens the blob store and the run store
// under cfg.DataDir, marks runs a killed process left unfinished as
// INTERRUPTED, connects to discovery and executor (lazily: they may start
// later) and starts the retention pass (now, then every cfg.PruneEvery).
// ctx bounds background work started here; it ends when the hosting server
// begins shutting down.
func New(ctx context.Context, cfg Config, log *zap.Logger, opts ...Option) (svc *Service, err error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	s := &Service{cfg: cfg, log: log}
	defer func() {
		if err != nil {
			_ = s.Close()
		}
	}()
	if s.blobs, err = openBlobStore(cfg.DataDir); err != nil {
		return nil, err
	}
	if s.runs, err = store.Open(filepath.Join(cfg.DataDir, runStoreFile), cfg.storeOptions(o.storeOpts)); err != nil {
		return nil, fmt.Errorf("open run store: %w", err)
	}
	ids, err := s.runs.RecoverInterrupted(ctx, time.Now())
	if err != nil {
		return nil, fmt.Errorf("recover interrupted runs: %w", err)
	}
	if len(ids) > 0 {
		log.Warn("runs left unfinished by a stopped process are marked INTERRUPTED", zap.Strings("run_ids", ids))
	}
	s.hub = events.NewHub(s.runs, events.Options{})
	if err := s.dialDeps(&o); err != nil {
		return nil, err
	}
	s.engine, err = engine.New(engine.Deps{
		Store: s.runs, Hub: s.hub, Blobs: s.blobs, Discovery: o.discovery, Executor: o.executor, Providers: o.providers,
	}, cfg.engineConfig(), log.Named("engine"))
	if err != nil {
		return nil, err
	}
	s.run = newRunServer(s.engine, s.runs, s.hub, o.discovery, log)
	s.startPruning(ctx)
	return s, nil
}

// dialDeps connects to discovery and executor unless they were given.
func (s *Service) dialDeps(o *options) error {
	if o.discovery == nil {
		conn, err := server.Dial(s.cfg.DiscoveryAddr, o.dialOpts...)
		if err != nil {
			return fmt.Errorf("discovery %s: %w", s.cfg.DiscoveryAddr, err)
		}
		s.conns = append(s.conns, conn)
		o.discovery = glv1.NewDiscoveryServiceClient(conn)
	}
	if o.executor == nil && o.executorConn != nil {
		s.fleet = fleet.NewConn("embedded", o.executorConn, s.log.Named("fleet"), fleet.Options{})
		o.executor = s.fleet
	}
	if o.executor == nil {
		f, err := fleet.New(executorTargets(s.cfg.ExecutorAddr), func(addr string) (*grpc.ClientConn, error) {
			return server.Dial(addr, o.dialOpts...)
		}, s.log.Named("fleet"), fleet.Options{})
		if err != nil {
			return fmt.Errorf("executor %s: %w", s.cfg.ExecutorAddr, err)
		}
		s.fleet = f
		o.executor = f
	}
	return nil
}

// startPruning runs the retention policy in the background until ctx ends
// or the service closes.
func (s *Service) startPruning(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	s.stopPrune = cancel
	s.pruneDone = make(chan struct{})
	p := &pruner{runs: s.runs, blobs: s.blobs, log: s.log.Named("retention"), ret: store.Retention{
		MaxAge: time.Duration(s.cfg.RetentionDays) * 24 * time.Hour, KeepRuns: s.cfg.RetentionRuns,
	}}
	go func() {
		defer close(s.pruneDone)
		p.run(ctx, s.cfg.PruneEvery)
	}()
}

// Blobs returns the loop's blob store, so an embedding process can share it
// instead of going through gRPC.
func (s *Service) Blobs() *blob.Store { return s.blobs }

// RunServer returns the RunService implementation, so an embedding process
// can call it in-process.
func (s *Service) RunServer() glv1.RunServiceServer { return s.run }

// Register adds the loop's gRPC services (RunService, BlobService) to r,
// each call served for the caller the gateway names (see tenancy.go).
func (s *Service) Register(r grpc.ServiceRegistrar) {
	visible := visibleTo(s.runs)
	r.RegisterService(tenantService(&glv1.RunService_ServiceDesc, visible), s.run)
	glv1.RegisterBlobServiceServer(r, blob.NewServer(s.blobs, s.log.Named("blob"),
		blob.WithMaxInFlightBytes(capOrOff(s.cfg.UploadInFlightBytes)),
		blob.WithAccess(blobAccess{runs: s.runs, visible: visible})))
}

// Close cancels runs still in progress (they finish CANCELED), stops the
// retention pass and releases the stores and connections. Call it after
// the server stopped; it is idempotent.
func (s *Service) Close() error {
	s.closeOnce.Do(func() {
		if s.engine != nil {
			s.engine.Close()
		}
		if s.stopPrune != nil {
			s.stopPrune()
			<-s.pruneDone
		}
		var errs []error
		if s.runs != nil {
			errs = append(errs, s.runs.Close())
		}
		for _, c := range s.conns {
			errs = append(errs, c.Close())
		}
		if s.fleet != nil {
			errs = append(errs, s.fleet.Close())
		}
		s.closeErr = errors.Join(errs...)
	})
	return s.closeErr
}

// executorTargets splits --executor-addr: comma-separated host:port
// entries, a host name standing for every address it resolves to.
func executorTargets(addrs string) []string {
	var out []string
	for _, a := range strings.Split(addrs, ",") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}
