package stack

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/pkg/tlsconf"
	"github.com/greenlight-dev/greenlight/services/discovery/discoverysvc"
	"github.com/greenlight-dev/greenlight/services/executor/executorsvc"
	"github.com/greenlight-dev/greenlight/services/gateway/gatewaysvc"
	"github.com/greenlight-dev/greenlight/services/loop/loopsvc"
)

// Options configure Start.
type Options struct {
	// Home is the data directory: run database, blobs, dependency cache.
	Home string
	// Listen makes the services listen on Addrs over TCP (serve); otherwise
	// they listen in memory and only this process can reach them.
	Listen bool
	// Addrs are the TCP addresses when Listen is set.
	Addrs Addrs
	// Gateway also runs the gateway (in front of the loop). Only with Listen.
	Gateway bool
	// Token is the bearer token the gateway requires ("" for none, which
	// the gateway allows on loopback only).
	Token string
	// TLS are the gateway's certificate, key and optional client CA: set,
	// its gRPC and HTTP listeners speak TLS (the internal services' stay
	// plaintext on their own addresses, guarded by the service token).
	TLS tlsconf.ServerFiles
	// OperatorToken is a second gateway token that sees every token's
	// runs and blobs ("" for none).
	OperatorToken string
	// ServiceToken is the shared secret discovery, executor and loop
	// require from each other (and from the gateway) when listening on TCP.
	// Empty: a fresh random one, since nothing outside this process needs
	// to call them. In-memory stacks use none: only this process can dial.
	ServiceToken string
	// PoolSize is the executor's warm pool per image (0: none, the right
	// choice for a one-shot command).
	PoolSize int
	// CABundle is a PEM file install steps trust (empty: the image's CAs).
	CABundle string
	// Images is the image set of every runtime: pkg/image.SetOffline ("",
	// the default) or SetUpstream (public images, pulled when missing).
	Images string
	// ShutdownGrace bounds how long in-flight calls may run at Close.
	ShutdownGrace time.Duration
	// Log receives the services' logs; nil discards them.
	Log *zap.Logger
	// ProviderProfiles are the COMMAND and OPENAI patch providers Fix
	// requests may select (none: only CLIENT and REPLAY).
	ProviderProfiles []loopsvc.ProviderProfile
	// Command is the CLI command starting the stack, recorded with the
	// process id in Home so a second command can say who holds it.
	Command string
	// Waiting, when set, makes Start wait for a Home another one-shot
	// command holds (it is called once, to say so) instead of failing;
	// a Home a serve holds always fails with the serve's address.
	Waiting func(*LockedError)
}

// Stack is the four services running in this process.
type Stack struct {
	opts   Options
	log    *zap.Logger
	cancel context.CancelFunc
	hosts  []*host
	loop   *loopsvc.Service
	exec   *executorsvc.Service
	gw     *gatewaysvc.Service
	conns  []*grpc.ClientConn
	lns    []*listener
	// httpAddr is where the gateway serves report pages ("" without one).
	httpAddr string
	// stopped is closed (once) when the first server stops.
	stopped  chan struct{}
	stopOnce sync.Once
	loopLn   *listener
	// token guards the internal listeners (nil in memory).
	token *server.ServiceToken
}

// Start runs the services. It fails with a *LockedError when another
// process holds Home's run database. Close stops everything.
func Start(ctx context.Context, opts Options) (st *Stack, err error) {
	if opts.Home == "" {
		return nil, errors.New("embedded greenlight: no data directory")
	}
	if opts.Log == nil {
		opts.Log = zap.NewNop()
	}
	if opts.Gateway && !opts.Listen {
		return nil, errors.New("embedded greenlight: the gateway needs TCP listeners")
	}
	if err := awaitHome(ctx, opts.Home, opts.Waiting); err != nil {
		return nil, err
	}
	if opts.Listen && opts.ServiceToken == "" {
		opts.ServiceToken = server.RandomServiceToken()
	}
	tok, err := server.NewServiceToken(opts.ServiceToken)
	if err != nil {
		return nil, fmt.Errorf("embedded greenlight: %w", err)
	}
	svcCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	st = &Stack{opts: opts, log: opts.Log, cancel: cancel, stopped: make(chan struct{}), token: tok}
	if err := st.build(svcCtx); err != nil {
		// Close what build started; st itself is not returned.
		_ = st.Close()
		return nil, err
	}
	for _, h := range st.hosts {
		h.serve(svcCtx, func() { st.stopOnce.Do(func() { close(st.stopped) }) })
	}
	o := Owner{PID: os.Getpid(), Command: opts.Command, Started: time.Now().UTC()}
	if opts.Gateway {
		o.Addr = st.Addrs().Gateway
	}
	writeOwner(opts.Home, o)
	return st, nil
}

// build listens, wires the services and registers them on their servers.
// The loop needs discovery and executor clients before those services
// exist (they read snapshots from the loop's blob store), so the clients
// are dialed lazily to listeners whose servers start afterwards.
func (st *Stack) build(ctx context.Context) error {
	discLn, err := st.listen("discovery", st.opts.Addrs.Discovery)
	if err != nil {
		return err
	}
	execLn, err := st.listen("executor", st.opts.Addrs.Executor)
	if err != nil {
		return err
	}
	if st.loopLn, err = st.listen("loop", st.opts.Addrs.Loop); err != nil {
		return err
	}
	discConn, err := st.dial(discLn)
	if err != nil {
		return err
	}
	execConn, err := st.dial(execLn)
	if err != nil {
		return err
	}
	if err := st.startLoop(ctx, discConn, execConn); err != nil {
		return err
	}
	images, err := image.Set(st.opts.Images)
	if err != nil {
		return fmt.Errorf("embedded greenlight: %w", err)
	}
	execCfg, err := st.executorConfig()
	if err != nil {
		return err
	}
	disc := discoverysvc.New(st.loop.Blobs(), st.log.Named("discovery"), discoveryOptions(execCfg, images))
	st.host("discovery", discLn, func(r grpc.ServiceRegistrar) { discoverysvc.Register(r, disc) }, st.internal())
	if err := st.startExecutor(ctx, execLn); err != nil {
		return err
	}
	st.host("loop", st.loopLn, st.loop.Register, st.internal())
	if st.opts.Gateway {
		return st.startGateway(ctx)
	}
	return nil
}

// startLoop opens the run store and blob store under Home.
func (st *Stack) startLoop(ctx context.Context, disc, exec *grpc.ClientConn) error {
	cfg := loopsvc.DefaultConfig()
	cfg.DataDir = st.opts.Home
	cfg.ProviderProfiles = st.opts.ProviderProfiles
	if !st.opts.Listen {
		cfg.PruneEvery = 0 // a one-shot process prunes once, at start
	}
	loop, err := loopsvc.New(ctx, cfg, st.log.Named("loop"),
		loopsvc.WithDiscovery(glv1.NewDiscoveryServiceClient(disc)),
		loopsvc.WithExecutorConn(exec))
	if err != nil {
		return fmt.Errorf("start loop: %w", err)
	}
	st.loop = loop
	return nil
}

// startExecutor builds the executor on the loop's blob store.
func (st *Stack) startExecutor(ctx context.Context, ln *listener) error {
	cfg, err := st.executorConfig()
	if err != nil {
		return err
	}
	exec, err := executorsvc.New(cfg, st.loop.Blobs(), st.log.Named("executor"))
	if err != nil {
		return fmt.Errorf("start executor: %w", err)
	}
	st.exec = exec
	st.host("executor", ln, func(r grpc.ServiceRegistrar) { glv1.RegisterExecutorServiceServer(r, exec) }, st.internal())
	if st.opts.PoolSize > 0 && st.opts.Listen {
		// serve warms every image now; a one-process fix or eval warms
		// only the images its first verification uses.
		exec.Warm(ctx)
	}
	return nil
}

// startGateway puts the gateway in front of the loop: gRPC on
// Addrs.Gateway (with the gateway's rate limit and token interceptors) and
// the report pages on Addrs.GatewayHTTP.
func (st *Stack) startGateway(ctx context.Context) error {
	ln, err := st.listen("gateway", st.opts.Addrs.Gateway)
	if err != nil {
		return err
	}
	httpLn, err := net.Listen("tcp", st.opts.Addrs.GatewayHTTP)
	if err != nil {
		return fmt.Errorf("gateway: report pages: listen on %s: %w", st.opts.Addrs.GatewayHTTP, err)
	}
	cfg := gatewaysvc.DefaultConfig()
	cfg.LoopAddr, cfg.GRPCAddr, cfg.HTTPAddr = st.loopLn.addr(), ln.addr(), httpLn.Addr().String()
	cfg.Token, cfg.OperatorToken = st.opts.Token, st.opts.OperatorToken
	cfg.TLSCert, cfg.TLSKey, cfg.TLSClientCA = st.opts.TLS.Cert, st.opts.TLS.Key, st.opts.TLS.ClientCA
	srvOpts, err := gatewaysvc.ServerOptions(cfg)
	if err != nil {
		_ = httpLn.Close()
		return fmt.Errorf("gateway: %w", err)
	}
	loop, err := st.dial(st.loopLn)
	if err != nil {
		_ = httpLn.Close()
		return err
	}
	gw, err := gatewaysvc.New(ctx, cfg, st.log.Named("gateway"), gatewaysvc.WithUpstream(loop), gatewaysvc.WithHTTPListener(httpLn))
	if err != nil {
		return fmt.Errorf("start gateway: %w", err)
	}
	st.gw, st.httpAddr = gw, httpLn.Addr().String()
	st.host("gateway", ln, gw.Register, srvOpts...)
	return nil
}

// internal is the server option of the internal services' listeners: the
// service token check.
func (st *Stack) internal() server.Option { return server.WithServiceToken(st.token) }

// ServiceToken returns the shared secret the internal listeners require
// ("" in memory), for tests and diagnostics.
func (st *Stack) ServiceToken() string { return st.opts.ServiceToken }

// Conn returns a connection to the loop (RunService and BlobService).
// Report pages are not served by a one-shot stack, so ReportBase is empty.
func (st *Stack) Conn() (*Conn, error) {
	cc, err := st.dial(st.loopLn)
	if err != nil {
		return nil, err
	}
	return &Conn{
		Run: glv1.NewRunServiceClient(cc), Blobs: blob.NewClient(cc), GRPC: cc, Embedded: true,
		close: func() error { return errors.Join(cc.Close(), st.Close()) },
	}, nil
}

// Addrs returns the addresses the services really listen on (useful with
// port 0); in-memory listeners report "bufconn:<name>".
func (st *Stack) Addrs() Addrs {
	a := Addrs{GatewayHTTP: st.httpAddr}
	for _, h := range st.hosts {
		switch h.name {
		case "gateway":
			a.Gateway = h.ln.addr()
		case "discovery":
			a.Discovery = h.ln.addr()
		case "executor":
			a.Executor = h.ln.addr()
		case "loop":
			a.Loop = h.ln.addr()
		}
	}
	return a
}

// Done is closed when any server has stopped serving: on its own (an
// error) before Close, or because of Close.
func (st *Stack) Done() <-chan struct{} { return st.stopped }

// Close stops the servers, then the gateway, the loop (runs still going
// finish CANCELED) and last the executor, whose Close removes its warm pool
// and waits for the removal of every run's container. It is idempotent.
func (st *Stack) Close() error {
	if st.cancel == nil {
		return nil
	}
	st.cancel()
	st.cancel = nil
	defer removeOwner(st.opts.Home)
	var errs []error
	for _, h := range st.hosts {
		errs = append(errs, h.wait())
	}
	if st.gw != nil {
		errs = append(errs, st.gw.Close())
	}
	if st.loop != nil {
		errs = append(errs, st.loop.Close())
	}
	if st.exec != nil {
		errs = append(errs, st.exec.Close())
	}
	for _, c := range st.conns {
		_ = c.Close()
	}
	for _, l := range st.lns {
		_ = l.net().Close() // already closed when served; frees a port otherwise
	}
	return errors.Join(errs...)
}

// newServer builds one service's gRPC server: health, reflection and
// logging from pkg/server, signals left to the process owner.
func (st *Stack) newServer(name string, extra ...server.Option) *server.Server {
	grace := st.opts.ShutdownGrace
	if grace <= 0 {
		grace = server.DefaultShutdownGrace
	}
	cfg := server.DefaultConfig(name, "127.0.0.1:0")
	if !st.opts.Listen {
		cfg.DrainDelay = 0 // nobody else can be connected to an in-memory listener
	}
	cfg.ShutdownGrace = grace
	return server.New(cfg, st.log.Named(name), append([]server.Option{server.WithoutSignals()}, extra...)...)
}
