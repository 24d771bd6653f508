package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/stack"
	"github.com/greenlight-dev/greenlight/pkg/config"
	"github.com/greenlight-dev/greenlight/pkg/server"
)

func (a *app) serveCmd() *cobra.Command {
	addrs := stack.DefaultAddrs()
	var pool int
	var grace time.Duration
	serviceToken := a.env.Getenv("GREENLIGHT_SERVICE_TOKEN")
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run all four services (gateway, loop, discovery, executor) in this process",
		Long: `serve runs the whole greenlight stack in one process, each service on its
own gRPC address (health and reflection on every one, so grpcurl works),
with the run database and blobs under the data directory. Clients use the
gateway: greenlight --addr 127.0.0.1:7070 verify DIR. SIGINT or SIGTERM
shuts it down gracefully: health turns NOT_SERVING, in-flight calls get
--shutdown-grace to finish, running verifications end CANCELED, and the
executor removes its containers.

The gateway requires --token (env GREENLIGHT_TOKEN) from its clients when
given; without one it refuses to listen on anything but loopback.

Loop, discovery and executor require a service token from every caller
but health (the gateway and they themselves send it): --service-token (env
GREENLIGHT_SERVICE_TOKEN), else a random one made at start, so no other
process can drive the executor. To grpcurl them, set one and pass
-H "x-greenlight-service-token: TOKEN".`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			for name, v := range map[string]string{"gateway-addr": addrs.Gateway, "http-addr": addrs.GatewayHTTP,
				"discovery-addr": addrs.Discovery, "executor-addr": addrs.Executor, "loop-addr": addrs.Loop} {
				if err := config.ValidateAddr(v); err != nil {
					return usagef("--%s: %v", name, err)
				}
			}
			log, err := a.logger(a.env.Stderr, "info")
			if err != nil {
				return err
			}
			if err := server.ValidateServiceToken(serviceToken); err != nil {
				return usagef("--service-token: %v", err)
			}
			defer func() { _ = log.Sync() }()
			ctx := cmd.Context()
			st, err := stack.Start(ctx, stack.Options{
				Home: a.dataDir(), Listen: true, Addrs: addrs, Gateway: true, PoolSize: pool,
				ShutdownGrace: grace, Log: log, Token: a.token, ServiceToken: serviceToken,
			})
			if err != nil {
				return err
			}
			got := st.Addrs()
			fmt.Fprintf(a.env.Stderr, "greenlight: serving; gateway %s (reports http://%s), loop %s, discovery %s, executor %s; data in %s\n",
				got.Gateway, got.GatewayHTTP, got.Loop, got.Discovery, got.Executor, a.dataDir())
			select {
			case <-ctx.Done():
				log.Info("shutting down")
			case <-st.Done():
				log.Error("a service stopped serving; shutting down")
			}
			if err := st.Close(); err != nil {
				log.Warn("shutdown", zap.Error(err))
				return err
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&addrs.Gateway, "gateway-addr", addrs.Gateway, "gateway gRPC address")
	fl.StringVar(&addrs.GatewayHTTP, "http-addr", addrs.GatewayHTTP, "gateway report pages (HTTP) address")
	fl.StringVar(&addrs.Loop, "loop-addr", addrs.Loop, "loop gRPC address")
	fl.StringVar(&addrs.Discovery, "discovery-addr", addrs.Discovery, "discovery gRPC address")
	fl.StringVar(&addrs.Executor, "executor-addr", addrs.Executor, "executor gRPC address")
	fl.IntVar(&pool, "pool-size", 2, "warm sandbox containers kept per image")
	fl.StringVar(&serviceToken, "service-token", serviceToken, "secret loop, discovery and executor require from their callers (env GREENLIGHT_SERVICE_TOKEN; default: random per process)")
	fl.DurationVar(&grace, "shutdown-grace", 10*time.Second, "how long in-flight calls may run after a shutdown signal")
	return cmd
}
