package cli

import (
	"context"
	"fmt"
	"io"

	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/stack"
	"github.com/greenlight-dev/greenlight/pkg/config"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/loop/loopsvc"
)

// dataDir is the embedded mode's data directory.
func (a *app) dataDir() string {
	if a.home != "" {
		return a.home
	}
	return config.DefaultDataDir()
}

// connect returns a connection: remote with --addr, embedded otherwise.
func (a *app) connect(ctx context.Context) (*stack.Conn, error) {
	return a.connectWith(ctx, a.profiles, 0)
}

// roundsPool is the embedded executor's warm pool per image for commands
// that verify many times in one process (fix rounds, eval tasks): each
// verification after the first takes a started, prepared sandbox instead
// of creating one (serve's default pool; a one-shot verify has none). Two,
// because a pool refills only when a run ends and the next round starts at
// once: with one, the first round after the baseline found it empty.
const roundsPool = 2

// connectWith is connect whose embedded loop also offers the given patch
// provider profiles, with a warm pool of pool sandboxes per image.
func (a *app) connectWith(ctx context.Context, profiles []loopsvc.ProviderProfile, pool int) (*stack.Conn, error) {
	if a.addr != "" {
		if err := config.ValidateAddr(a.addr); err != nil {
			return nil, usagef("--addr: %v", err)
		}
		tlsCfg, err := a.remoteTLS()
		if err != nil {
			return nil, err
		}
		return stack.Remote(stack.RemoteOptions{Addr: a.addr, Token: a.token, ReportBase: a.reportURL, TLS: tlsCfg})
	}
	ca, err := a.caBundle()
	if err != nil {
		return nil, err
	}
	images, err := a.images()
	if err != nil {
		return nil, err
	}
	log, err := a.logger(a.env.Stderr, "")
	if err != nil {
		return nil, err
	}
	st, err := stack.Start(ctx, stack.Options{Home: a.dataDir(), Log: log, ProviderProfiles: profiles, CABundle: ca, Images: images, PoolSize: pool,
		Command: a.command, Waiting: func(e *stack.LockedError) {
			fmt.Fprintf(a.env.Stderr, "greenlight: waiting for greenlight %s (pid %d) to finish with %s; pass --home DIR to run alongside it\n",
				e.Owner.Command, e.Owner.PID, e.Home)
		}})
	if err != nil {
		return nil, err
	}
	conn, err := st.Conn()
	if err != nil {
		_ = st.Close()
		return nil, err
	}
	conn.ReportBase = a.reportURL
	return conn, nil
}

// logger builds the services' logger: off unless --log-level (or def) says
// otherwise, so one-shot commands print only their own output.
func (a *app) logger(w io.Writer, def string) (*zap.Logger, error) {
	level := envOr(a.logLevel, def)
	if level == "" || level == "off" {
		return zap.NewNop(), nil
	}
	cfg := server.DefaultConfig("greenlight", config.DefaultGatewayAddr)
	cfg.LogLevel = level
	cfg.Name = ""
	log, err := server.NewLoggerTo(cfg, w)
	if err != nil {
		return nil, usagef("--log-level: %v", err)
	}
	return log, nil
}

// embeddedHint is what to print instead of a report URL in embedded mode;
// prog is how the user runs greenlight (app.program).
func embeddedHint(prog, runID string) string {
	return fmt.Sprintf("%s show %s  (or run `%s serve` and open http://%s/runs/%s)",
		prog, runID, prog, config.DefaultGatewayHTTPAddr, runID)
}
