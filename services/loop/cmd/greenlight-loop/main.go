// Command greenlight-loop runs the loop service: the orchestrator that owns
// the run store and the blob store and drives verify and fix runs.
package main

import (
	"context"

	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/pkg/config"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/loop/loopsvc"
)

func main() {
	cfg := loopsvc.DefaultConfig()
	server.Main(server.Spec{
		Name:        "loop",
		DefaultAddr: config.DefaultLoopAddr,
		Settings:    &cfg,
		Register: func(ctx context.Context, s *server.Server, log *zap.Logger) (func() error, error) {
			svc, err := loopsvc.New(ctx, cfg, log)
			if err != nil {
				return nil, err
			}
			svc.Register(s.GRPC())
			return svc.Close, nil
		},
	})
}
