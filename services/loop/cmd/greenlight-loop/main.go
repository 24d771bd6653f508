// Command greenlight-loop runs the loop service: the orchestrator that owns
// the run store and the blob store and drives verify and fix runs
// (RunService, BlobService).
//
// At start-up it marks runs a killed predecessor left unfinished as
// INTERRUPTED, then serves. Flags (also GREENLIGHT_LOOP_* variables and
// --config keys): --data-dir, --discovery-addr, --executor-addr, the
// budgets --time-budget, --max-attempts, --max-rounds, --fix-time-budget,
// --score-threshold, and retention --retention-days, --retention-runs,
// --prune-every; plus the server's own (--addr, --log-level,
// --service-token, ...).
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
			svc, err := loopsvc.New(ctx, cfg, log, loopsvc.WithDialOptions(server.DialServiceToken(s.Config().ServiceToken)))
			if err != nil {
				return nil, err
			}
			svc.Register(s.GRPC())
			return svc.Close, nil
		},
	})
}
