package server

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"
)

// stuckHandlerWait bounds how long Serve waits, after the hard Stop, for
// handlers that ignore their cancelled context; they are then abandoned so
// the process can still exit.
const stuckHandlerWait = 2 * time.Second

// Server is a grpc.Server with health, reflection, interceptors and an
// orderly shutdown. Build it with New, register services on GRPC(), then
// call Serve or ListenAndServe once.
type Server struct {
	cfg          Config
	log          *zap.Logger
	grpc         *grpc.Server
	health       *healthService
	handleSignal bool
	decode       *decodeFailures

	mu       sync.Mutex
	explicit map[string]bool // services whose status SetServing fixed before Serve
}

// New builds the server. Zero MaxRecvMsgBytes, MaxSendMsgBytes or
// ShutdownGrace take their defaults; a zero DrainDelay means no drain pause.
// A nil log discards logs.
func New(cfg Config, log *zap.Logger, opts ...Option) *Server {
	cfg = withDefaults(cfg)
	if log == nil {
		log = zap.NewNop()
	}
	o := options{handleSignal: true}
	for _, opt := range opts {
		opt(&o)
	}
	o = withDecodeErrors(o)
	unary := []grpc.UnaryServerInterceptor{unaryLogging(log), unaryRecovery(), unaryDecodeTake(o.decode)}
	stream := []grpc.StreamServerInterceptor{streamLogging(log), streamRecovery()}
	var gs gates
	if o.serviceToken != nil {
		gs = append(gs, o.serviceToken.Gate())
	}
	gs = append(gs, o.gates...)
	var tapOpt []grpc.ServerOption
	if len(gs) > 0 {
		// The gates run at the transport, before the request is read, and
		// again (for calls that bypass it, see gates.ungated) ahead of
		// every interceptor but logging, recovery and the decode record's
		// removal, which must see every call.
		tapOpt = append(tapOpt, grpc.InTapHandle(gs.tapHandle))
		unary = append(unary, gs.unaryInterceptor())
		stream = append(stream, gs.streamInterceptor())
	}
	unary = append(unary, o.unary...)
	stream = append(stream, o.stream...)
	grpcOpts := append(append([]grpc.ServerOption{
		grpc.MaxRecvMsgSize(cfg.MaxRecvMsgBytes),
		grpc.MaxSendMsgSize(cfg.MaxSendMsgBytes),
		grpc.ChainUnaryInterceptor(unary...),
		grpc.ChainStreamInterceptor(stream...),
	}, tapOpt...), o.grpcOptions...)

	s := &Server{
		cfg:          cfg,
		log:          log,
		grpc:         grpc.NewServer(grpcOpts...),
		health:       newHealthService(),
		handleSignal: o.handleSignal,
		decode:       o.decode,
		explicit:     map[string]bool{},
	}
	// Until Serve runs, nothing is ready.
	s.health.SetServingStatus("", healthpb.HealthCheckResponse_NOT_SERVING)
	healthpb.RegisterHealthServer(s.grpc, s.health)
	reflection.Register(s.grpc)
	return s
}

func withDefaults(cfg Config) Config {
	if cfg.MaxRecvMsgBytes == 0 {
		cfg.MaxRecvMsgBytes = DefaultMaxMsgBytes
	}
	if cfg.MaxSendMsgBytes == 0 {
		cfg.MaxSendMsgBytes = DefaultMaxMsgBytes
	}
	if cfg.ShutdownGrace == 0 {
		cfg.ShutdownGrace = DefaultShutdownGrace
	}
	return cfg
}

// GRPC returns the underlying server for registering services. Register
// before Serve.
func (s *Server) GRPC() *grpc.Server { return s.grpc }

// Config returns the effective configuration (defaults applied).
func (s *Server) Config() Config { return s.cfg }

// Logger returns the server's logger.
func (s *Server) Logger() *zap.Logger { return s.log }

// SetServing sets the health status of one service by its full name
// ("greenlight.v1.RunService"; "" is the whole server). Serve marks every
// registered service SERVING when it starts, except those set here before;
// call it later to report a dependency going away and coming back. Once
// shutdown has begun every status stays NOT_SERVING.
func (s *Server) SetServing(service string, serving bool) {
	s.mu.Lock()
	s.explicit[service] = serving
	s.mu.Unlock()
	s.health.SetServingStatus(service, statusOf(serving))
}

func statusOf(serving bool) healthpb.HealthCheckResponse_ServingStatus {
	if serving {
		return healthpb.HealthCheckResponse_SERVING
	}
	return healthpb.HealthCheckResponse_NOT_SERVING
}

// ListenAndServe listens on Config.Addr and calls Serve.
func (s *Server) ListenAndServe(ctx context.Context) error {
	lis, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.cfg.Addr, err)
	}
	return s.Serve(ctx, lis)
}

// Serve accepts connections on lis until ctx is done or (unless
// WithoutSignals) SIGINT/SIGTERM arrives, then shuts down: health
// NOT_SERVING, DrainDelay, GracefulStop bounded by ShutdownGrace, then Stop.
// It returns nil after such a shutdown and an error when serving failed.
// A second signal during shutdown kills the process the default way.
func (s *Server) Serve(ctx context.Context, lis net.Listener) error {
	if s.handleSignal {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		// Restoring default handling as soon as we start shutting down lets
		// an impatient second Ctrl-C end the process at once.
		context.AfterFunc(ctx, stop)
		defer stop()
	}
	s.markServing()

	served := make(chan error, 1)
	go func() { served <- s.grpc.Serve(lis) }()
	v, c := Version()
	s.log.Info("serving", zap.String("addr", lis.Addr().String()), zap.String("version", v), zap.String("commit", c))

	select {
	case err := <-served:
		s.health.Shutdown()
		s.health.endWatches()
		return fmt.Errorf("serve on %s: %w", lis.Addr(), err)
	case <-ctx.Done():
	}
	s.shutdown()
	<-served
	s.log.Info("stopped")
	return nil
}

// markServing flips the whole server and every registered service that
// SetServing did not fix to SERVING.
func (s *Server) markServing() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.explicit[""]; !ok {
		s.health.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	}
	for name := range s.grpc.GetServiceInfo() {
		if _, ok := s.explicit[name]; !ok {
			s.health.SetServingStatus(name, healthpb.HealthCheckResponse_SERVING)
		}
	}
}

// shutdown runs the three shutdown steps.
func (s *Server) shutdown() {
	s.log.Info("shutting down",
		zap.Duration("drain_delay", s.cfg.DrainDelay),
		zap.Duration("grace", s.cfg.ShutdownGrace))
	s.health.Shutdown()
	if s.cfg.DrainDelay > 0 {
		time.Sleep(s.cfg.DrainDelay)
	}
	s.health.endWatches()

	graceful := make(chan struct{})
	go func() {
		s.grpc.GracefulStop()
		close(graceful)
	}()
	timer := time.NewTimer(s.cfg.ShutdownGrace)
	defer timer.Stop()
	select {
	case <-graceful:
		return
	case <-timer.C:
	}
	s.log.Warn("shutdown grace expired; cancelling in-flight RPCs")
	s.grpc.Stop()
	select {
	case <-graceful:
	case <-time.After(stuckHandlerWait):
		s.log.Error("handlers still running after hard stop; abandoning them")
	}
}
