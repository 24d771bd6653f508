package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/pkg/config"
)

// Exit codes returned by Run.
const (
	ExitOK      = 0 // clean shutdown, or -h
	ExitFailure = 1 // the service could not start or failed while serving
	ExitUsage   = 2 // bad flags, environment, config file or values
)

// Spec describes one service binary for Main.
type Spec struct {
	// Name is the service name: it selects GREENLIGHT_<NAME>_* variables and
	// appears in logs ("loop", "gateway", ...).
	Name string
	// DefaultAddr is the listen address when none is configured, one of the
	// pkg/config Default*Addr constants.
	DefaultAddr string
	// Public marks the public door (the gateway), which authenticates its
	// clients itself: the shared service token is then only sent to the
	// services it calls (Config.Public). Every other service requires the
	// token on its listener when one is configured, and refuses to start
	// off loopback without one.
	Public bool
	// Settings is a pointer to the service's own typed configuration,
	// holding its defaults (optional). The server's settings (addr,
	// log-level, ...) are bound already; Register sees the parsed values.
	Settings Settings
	// Options returns extra server options built from the parsed settings,
	// e.g. the gateway's auth interceptors (optional).
	Options func(log *zap.Logger) ([]Option, error)
	// Register builds the service's dependencies and registers its gRPC
	// services on s.GRPC(). The returned close function (may be nil) runs
	// after the server has stopped. ctx ends when shutdown begins.
	Register func(ctx context.Context, s *Server, log *zap.Logger) (close func() error, err error)
}

// Settings is a service's own configuration struct, passed by pointer.
type Settings interface {
	// RegisterFlags binds the fields to fs (defaults: the current values).
	RegisterFlags(fs *config.FlagSet)
	// Validate checks the parsed values; an error is a usage error (exit 2)
	// and should name the flag at fault.
	Validate() error
}

// Main runs spec with the process arguments and environment and exits with
// Run's code.
func Main(spec Spec) {
	if asksVersion(os.Args[1:]) {
		fmt.Println(VersionLine(spec.Name))
		os.Exit(ExitOK)
	}
	os.Exit(Run(context.Background(), spec, os.Args[1:], os.Stderr))
}

// Run parses args (plus environment and config file), builds the logger and
// server, lets spec register services and serves until ctx is done or a
// signal arrives. Logs go to stderr too. It returns an exit code: ExitUsage with a one-line message
// on stderr for bad configuration, ExitFailure when the service failed.
func Run(ctx context.Context, spec Spec, args []string, stderr io.Writer) int {
	cfg := DefaultConfig(spec.Name, spec.DefaultAddr)
	cfg.Public = spec.Public
	if err := parse(spec, &cfg, args, stderr); err != nil {
		if errors.Is(err, config.ErrHelp) {
			return ExitOK
		}
		fmt.Fprintf(stderr, "greenlight-%s: %v\n", spec.Name, err)
		return ExitUsage
	}
	log, err := NewLoggerTo(cfg, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "greenlight-%s: %v\n", spec.Name, err)
		return ExitUsage
	}
	defer func() { _ = log.Sync() }()
	if err := serve(ctx, spec, cfg, log); err != nil {
		log.Error("service failed", zap.Error(err))
		return ExitFailure
	}
	return ExitOK
}

func parse(spec Spec, cfg *Config, args []string, stderr io.Writer) error {
	fs := config.NewFlagSet(spec.Name)
	cfg.RegisterFlags(fs)
	if spec.Settings != nil {
		spec.Settings.RegisterFlags(fs)
	}
	if err := fs.Parse(args, stderr); err != nil {
		return err
	}
	if err := cfg.loadServiceTokenFile(); err != nil {
		return err
	}
	if extra := fs.Std().Args(); len(extra) > 0 {
		return fmt.Errorf("%w: unexpected arguments %q", config.ErrInvalid, extra)
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	if spec.Settings != nil {
		if err := spec.Settings.Validate(); err != nil {
			return fmt.Errorf("%w: %w", config.ErrInvalid, err)
		}
	}
	return nil
}

func serve(ctx context.Context, spec Spec, cfg Config, log *zap.Logger) error {
	var opts []Option
	if spec.Options != nil {
		var err error
		if opts, err = spec.Options(log); err != nil {
			return fmt.Errorf("server options: %w", err)
		}
	}
	if !cfg.Public {
		tok, err := NewServiceToken(cfg.ServiceToken) // validated in parse
		if err != nil {
			return err
		}
		opts = append(opts, WithServiceToken(tok))
	}
	srv := New(cfg, log, opts...)
	// The signal context is shared with Register so that background work
	// started there sees shutdown begin, not only end.
	ctx, cancel := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer cancel()
	context.AfterFunc(ctx, cancel)
	closeFn, err := spec.Register(ctx, srv, log)
	if err != nil {
		return fmt.Errorf("register %s: %w", spec.Name, err)
	}
	serveErr := srv.ListenAndServe(ctx)
	cancel()
	if closeFn != nil {
		if err := closeFn(); err != nil {
			return errors.Join(serveErr, fmt.Errorf("close %s: %w", spec.Name, err))
		}
	}
	return serveErr
}
