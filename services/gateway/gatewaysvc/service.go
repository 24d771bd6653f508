package gatewaysvc

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/pkg/tlsconf"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/auth"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/fanout"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/limit"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/web"
)

// httpShutdownGrace bounds how long Close waits for HTTP requests; event
// streams end at once because their context is the service's.
const httpShutdownGrace = 5 * time.Second

// Option changes how New wires the gateway.
type Option func(*options)

type options struct {
	upstream grpc.ClientConnInterface
	listener net.Listener
	dialOpts []grpc.DialOption
}

// WithUpstream uses conn to reach the loop instead of dialing
// Config.LoopAddr (the embedded mode passes an in-process connection). The
// caller keeps ownership of conn.
func WithUpstream(conn grpc.ClientConnInterface) Option {
	return func(o *options) { o.upstream = conn }
}

// WithDialOptions adds options to the connection New dials to the loop
// (the binary passes the shared service token). Unused with WithUpstream.
func WithDialOptions(opts ...grpc.DialOption) Option {
	return func(o *options) { o.dialOpts = append(o.dialOpts, opts...) }
}

// WithHTTPListener serves the report pages on lis instead of listening on
// Config.HTTPAddr. The service closes it.
func WithHTTPListener(lis net.Listener) Option {
	return func(o *options) { o.listener = lis }
}

// Service is the gateway's composition root: the loop connection, the
// event fan-out, the gRPC proxies and the HTTP report server.
type Service struct {
	cfg  Config
	log  *zap.Logger
	conn *grpc.ClientConn // owned; nil with WithUpstream
	hub  *fanout.Hub
	run  *runProxy
	blob *blobProxy
	web  http.Handler
	// grpc is where HTTP/JSON calls go: the server Register registered on.
	grpc grpcTarget

	httpSrv  *http.Server
	httpAddr string
	httpDone chan struct{}
	closeMu  sync.Once
	closeErr error
}

// New builds the gateway from cfg (validated again here, so that an
// embedding program gets the token rule too) and starts the HTTP server
// unless cfg.HTTPAddr is empty. ctx bounds background work (upstream
// streams, event streams to browsers); it ends when the hosting server
// begins shutting down.
func New(ctx context.Context, cfg Config, log *zap.Logger, opts ...Option) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	s := &Service{cfg: cfg, log: log}
	up := o.upstream
	if up == nil {
		conn, err := server.Dial(cfg.LoopAddr, o.dialOpts...)
		if err != nil {
			return nil, fmt.Errorf("loop %s: %w", cfg.LoopAddr, err)
		}
		s.conn, up = conn, conn
	}
	keys, err := cfg.keys()
	if err != nil {
		_ = s.Close()
		return nil, err
	}
	stamped := callerConn{ClientConnInterface: up}
	runs := glv1.NewRunServiceClient(stamped)
	blobs := glv1.NewBlobServiceClient(stamped)
	s.hub = fanout.NewHub(ctx, glv1.NewRunServiceClient(callerConn{ClientConnInterface: up, fixed: &fanoutIdentity}),
		log.Named("fanout"), cfg.fanoutOptions())
	watch := ownedWatch{runs: runs, hub: s.hub}
	s.run = &runProxy{up: runs, watch: watch}
	s.blob = &blobProxy{up: blobs, maxUpload: int64(cfg.MaxUploadBytes)}
	h, err := s.httpHandler(keys, runs, blobs, watch)
	if err != nil {
		_ = s.Close()
		return nil, err
	}
	s.web = h
	if err := s.startHTTP(ctx, o.listener); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// httpHandler is, behind the rate limit, the report pages behind the
// tokens (each request seeing what its token's identity may see) and the
// public services as HTTP/JSON, whose bearer token is checked before the
// body is read (and again by the gRPC server's gates).
func (s *Service) httpHandler(keys *auth.Keys, runs glv1.RunServiceClient, blobs glv1.BlobServiceClient, watch web.Watcher) (http.Handler, error) {
	pages := web.New(web.Deps{Runs: runs, Blobs: blobs, Watch: watch, Log: s.log.Named("http"), Upstream: upstreamContextHTTP})
	rpc, err := newRPCHandler(&s.grpc)
	if err != nil {
		return nil, err
	}
	lim := limit.New(float64(s.cfg.RateLimit), s.cfg.RateBurst)
	return lim.Middleware(routeRPC(keys.RequireBearer(rpc, unauthenticatedRPC()), keys.Middleware(pages, web.HealthPath)), web.HealthPath), nil
}

// startHTTP listens (unless HTTP is off) and serves in the background.
func (s *Service) startHTTP(ctx context.Context, lis net.Listener) error {
	if lis == nil && s.cfg.HTTPAddr == "" {
		return nil
	}
	if lis == nil {
		var err error
		if lis, err = net.Listen("tcp", s.cfg.HTTPAddr); err != nil {
			return fmt.Errorf("listen for HTTP on %s: %w", s.cfg.HTTPAddr, err)
		}
	}
	tlsCfg, err := s.cfg.serverTLS()
	if err != nil {
		_ = lis.Close()
		return err
	}
	if tlsCfg != nil {
		// The same listener serves pages and HTTP/JSON, so both are TLS.
		lis = tls.NewListener(lis, tlsconf.ForHTTP(tlsCfg))
	}
	s.httpAddr = lis.Addr().String()
	s.httpSrv = &http.Server{
		Handler:           s.web,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ErrorLog:          zap.NewStdLog(s.log.Named("http")),
	}
	s.httpDone = make(chan struct{})
	go func() {
		defer close(s.httpDone)
		if err := s.httpSrv.Serve(lis); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("http server failed", zap.Error(err))
		}
	}()
	s.log.Info("http serving", zap.String("addr", s.httpAddr), zap.Bool("token_required", s.cfg.Token != "" || s.cfg.OperatorToken != ""),
		zap.Bool("tls", tlsCfg != nil), zap.Bool("client_certs", s.cfg.TLSClientCA != ""))
	return nil
}

// Register adds the gateway's public gRPC services to r. When r is the
// *grpc.Server itself (the binary and the embedded stack pass it), the
// HTTP listener also serves them as HTTP/JSON (Connect, gRPC-Web) through
// it, so HTTP calls pass the same interceptors; otherwise such calls
// answer Unavailable.
func (s *Service) Register(r grpc.ServiceRegistrar) {
	glv1.RegisterRunServiceServer(r, s.run)
	glv1.RegisterBlobServiceServer(r, s.blob)
	if srv, ok := r.(*grpc.Server); ok {
		s.grpc.srv.Store(srv)
	}
}

// HTTPHandler returns the report pages and the HTTP/JSON API with auth and
// rate limit, for an embedding program that serves HTTP itself (then leave
// HTTPAddr empty).
func (s *Service) HTTPHandler() http.Handler { return s.web }

// HTTPAddr returns the address the report pages listen on ("" when off).
func (s *Service) HTTPAddr() string { return s.httpAddr }

// FanoutStats returns the event fan-out's counters.
func (s *Service) FanoutStats() fanout.Stats { return s.hub.Stats() }

// Close stops the HTTP server and closes the loop connection. Call it after
// the gRPC server stopped; it is idempotent.
func (s *Service) Close() error {
	s.closeMu.Do(func() {
		var errs []error
		if s.httpSrv != nil {
			ctx, cancel := context.WithTimeout(context.Background(), httpShutdownGrace)
			if err := s.httpSrv.Shutdown(ctx); err != nil {
				errs = append(errs, fmt.Errorf("http shutdown: %w", err), s.httpSrv.Close())
			}
			cancel()
			<-s.httpDone
		}
		if s.conn != nil {
			errs = append(errs, s.conn.Close())
		}
		s.closeErr = errors.Join(errs...)
	})
	return s.closeErr
}
