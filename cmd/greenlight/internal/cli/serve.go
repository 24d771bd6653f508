package cli

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/stack"
	"github.com/greenlight-dev/greenlight/pkg/config"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/pkg/tlsconf"
	"github.com/greenlight-dev/greenlight/services/loop/loopsvc"
)

func (a *app) serveCmd() *cobra.Command {
	addrs := stack.DefaultAddrs()
	var pool int
	var grace time.Duration
	var profileSpecs []string
	var listen string
	serviceToken := a.env.Getenv("GREENLIGHT_SERVICE_TOKEN")
	operatorToken := a.env.Getenv("GREENLIGHT_OPERATOR_TOKEN")
	var operatorTokenFile string
	tlsFiles := tlsconf.ServerFiles{Cert: a.env.Getenv("GREENLIGHT_TLS_CERT"), Key: a.env.Getenv("GREENLIGHT_TLS_KEY"),
		ClientCA: a.env.Getenv("GREENLIGHT_TLS_CLIENT_CA")}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run all four services (gateway, loop, discovery, executor) in this process",
		Long: `serve runs the whole greenlight stack in one process, each service on its
own gRPC address (health and reflection on every one, so grpcurl works),
with the run database and blobs under the data directory. Clients use the
gateway: greenlight --addr 127.0.0.1:7070 verify DIR. --listen HOST:PORT
moves them all: gateway PORT, discovery PORT+1, executor PORT+2, loop
PORT+3, report pages and HTTP/JSON PORT+10 (the defaults' scheme, 7070 to
7080); an address flag given as well wins. SIGINT or SIGTERM
shuts it down gracefully: health turns NOT_SERVING, in-flight calls get
--shutdown-grace to finish, running verifications end CANCELED, and the
executor removes its containers.

The gateway requires --token (env GREENLIGHT_TOKEN) from its clients when
given; without one it refuses to listen on anything but loopback. Runs
belong to the token that started them: another token sees none of them
(NotFound). --operator-token (env GREENLIGHT_OPERATOR_TOKEN) or
--operator-token-file is a second token that sees every token's runs,
reports and blobs.

--tls-cert and --tls-key (PEM) make the gateway's gRPC and HTTP listeners
speak TLS, so the token does not cross a network in clear; --tls-client-ca
also requires client certificates signed by one of its CAs (mutual TLS).
Clients: greenlight --addr HOST:7070 --ca-file CA.pem (TLS is the default
for every host but loopback).

Fix requests may use the client and replay providers; command and openai
providers run only as profiles configured here with --provider-profile
(repeatable), which requests select by name:
  name=NAME,kind=command,[timeout=5m,]command=CMD   (command last)
  name=NAME,kind=openai,model=M[,base-url=URL][,key-env=VAR][,allow-model=true][,timeout=2m][,cost-per-1k=0.002]
A key-env variable that is not set in serve's environment is an error at
start.

Loop, discovery and executor require a service token from every caller
but health (the gateway and they themselves send it): --service-token (env
GREENLIGHT_SERVICE_TOKEN), else a random one made at start, so no other
process can drive the executor. To grpcurl them, set one and pass
-H "x-greenlight-service-token: TOKEN".`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := applyListen(cmd, listen); err != nil {
				return err
			}
			for name, v := range map[string]string{"gateway-addr": addrs.Gateway, "http-addr": addrs.GatewayHTTP,
				"discovery-addr": addrs.Discovery, "executor-addr": addrs.Executor, "loop-addr": addrs.Loop} {
				if err := config.ValidateAddr(v); err != nil {
					return usagef("--%s: %v", name, err)
				}
			}
			profiles, err := a.providerProfiles(profileSpecs)
			if err != nil {
				return err
			}
			ca, err := a.caBundle()
			if err != nil {
				return err
			}
			images, err := a.images()
			if err != nil {
				return err
			}
			log, err := a.logger(a.env.Stderr, "info")
			if err != nil {
				return err
			}
			if err := server.ValidateServiceToken(serviceToken); err != nil {
				return usagef("--service-token: %v", err)
			}
			if operatorTokenFile != "" {
				b, err := os.ReadFile(operatorTokenFile)
				if err != nil {
					return usagef("--operator-token-file: %v", err)
				}
				if operatorToken = strings.TrimSpace(string(b)); operatorToken == "" {
					return usagef("--operator-token-file: %s is empty", operatorTokenFile)
				}
			}
			if _, err := tlsFiles.Config(); err != nil {
				return usagef("--tls-cert, --tls-key, --tls-client-ca: %v", err)
			}
			defer func() { _ = log.Sync() }()
			ctx := cmd.Context()
			st, err := stack.Start(ctx, stack.Options{
				Home: a.dataDir(), Listen: true, Addrs: addrs, Gateway: true, PoolSize: pool,
				ShutdownGrace: grace, Log: log, Token: a.token, OperatorToken: operatorToken, ProviderProfiles: profiles, ServiceToken: serviceToken, CABundle: ca,
				Images: images, Command: "serve", TLS: tlsFiles,
			})
			if err != nil {
				return err
			}
			got := st.Addrs()
			scheme := "http"
			if tlsFiles.Enabled() {
				scheme = "https"
			}
			fmt.Fprintf(a.env.Stderr, "greenlight: serving; gateway %s (reports %s://%s), loop %s, discovery %s, executor %s; data in %s\n",
				got.Gateway, scheme, got.GatewayHTTP, got.Loop, got.Discovery, got.Executor, a.dataDir())
			if !tlsFiles.Enabled() && !(config.IsLoopback(got.Gateway) && config.IsLoopback(got.GatewayHTTP)) {
				fmt.Fprintf(a.env.Stderr, "greenlight: the gateway listens off loopback without TLS: the token crosses the network in clear "+
					"unless a TLS proxy fronts it (or pass --tls-cert and --tls-key)\n")
			}
			if a.token != "" {
				// The token itself is never printed: this ends up in logs.
				fmt.Fprintf(a.env.Stderr, "greenlight: the token is required: clients send it as a bearer token "+
					"(greenlight --token, grpcurl -H 'authorization: Bearer TOKEN'); the report pages ask a browser for it once "+
					"(or open %s://%s/?token=TOKEN)\n", scheme, got.GatewayHTTP)
			}
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
	fl.StringVar(&listen, "listen", "", listenUsage)
	fl.StringVar(&addrs.Gateway, "gateway-addr", addrs.Gateway, "gateway gRPC address")
	fl.StringVar(&addrs.GatewayHTTP, "http-addr", addrs.GatewayHTTP, "gateway report pages and HTTP/JSON API address")
	fl.StringVar(&addrs.Loop, "loop-addr", addrs.Loop, "loop gRPC address")
	fl.StringVar(&addrs.Discovery, "discovery-addr", addrs.Discovery, "discovery gRPC address")
	fl.StringVar(&addrs.Executor, "executor-addr", addrs.Executor, "executor gRPC address")
	fl.IntVar(&pool, "pool-size", 2, "warm sandbox containers kept per image")
	fl.StringVar(&serviceToken, "service-token", serviceToken, "secret loop, discovery and executor require from their callers (env GREENLIGHT_SERVICE_TOKEN; default: random per process)")
	fl.StringVar(&operatorToken, "operator-token", operatorToken, "bearer token that sees every token's runs and blobs (env GREENLIGHT_OPERATOR_TOKEN)")
	fl.StringVar(&operatorTokenFile, "operator-token-file", "", "file holding the operator token (wins over --operator-token)")
	fl.StringVar(&tlsFiles.Cert, "tls-cert", tlsFiles.Cert, "PEM `file` of the certificate (chain) the gateway's gRPC and HTTP listeners serve TLS with (env GREENLIGHT_TLS_CERT; with --tls-key)")
	fl.StringVar(&tlsFiles.Key, "tls-key", tlsFiles.Key, "PEM `file` of --tls-cert's private key (env GREENLIGHT_TLS_KEY)")
	fl.StringVar(&tlsFiles.ClientCA, "tls-client-ca", tlsFiles.ClientCA, "PEM `file` of the CAs whose client certificates the gateway requires (env GREENLIGHT_TLS_CLIENT_CA; mutual TLS)")
	fl.DurationVar(&grace, "shutdown-grace", 10*time.Second, "how long in-flight calls may run after a shutdown signal")
	fl.StringArrayVar(&profileSpecs, "provider-profile", nil, "a command or openai patch provider Fix requests may select by name (repeatable; see above)")
	return cmd
}

// providerProfiles parses and checks serve's --provider-profile values
// (exit 2 on a bad one, or one whose key variable is not set).
func (a *app) providerProfiles(specs []string) ([]loopsvc.ProviderProfile, error) {
	cfg := loopsvc.DefaultConfig()
	cfg.Getenv = a.env.Getenv
	for _, spec := range specs {
		p, err := loopsvc.ParseProviderProfile(spec)
		if err != nil {
			return nil, usagef("--provider-profile: %v", err)
		}
		cfg.ProviderProfiles = append(cfg.ProviderProfiles, p)
	}
	if err := cfg.Validate(); err != nil {
		return nil, usagef("%v", err)
	}
	return cfg.ProviderProfiles, nil
}
