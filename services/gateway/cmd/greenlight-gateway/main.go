// Command greenlight-gateway runs the gateway: greenlight's public door for
// agent frameworks, IDE plugins, grpcurl and browsers.
package main

import (
	"context"

	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/pkg/config"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/gateway/gatewaysvc"
)

func main() {
	cfg := gatewaysvc.DefaultConfig()
	server.Main(server.Spec{
		Name:        "gateway",
		DefaultAddr: config.DefaultGatewayAddr,
		// The gateway checks its clients' bearer token (--token); the
		// service token only goes to the loop.
		Public:   true,
		Settings: &cfg,
		Options: func(*zap.Logger) ([]server.Option, error) {
			return gatewaysvc.ServerOptions(cfg)
		},
		Register: func(ctx context.Context, s *server.Server, log *zap.Logger) (func() error, error) {
			svc, err := gatewaysvc.New(ctx, cfg, log, gatewaysvc.WithDialOptions(server.DialServiceToken(s.Config().ServiceToken)))
			if err != nil {
				return nil, err
			}
			svc.Register(s.GRPC())
			return svc.Close, nil
		},
	})
}
