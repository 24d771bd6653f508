// Command greenlight-loop runs the loop service: the orchestrator that owns
// the run store and the blob store and drives verify and fix runs
// (RunService, BlobService).
//
// At start-up it marks runs a killed predecessor left unfinished as
// INTERRUPTED, then serves. Flags (also GREENLIGHT_LOOP_* variables and
// --config keys): --data-dir, --discovery-addr, --executor-addr, the
// budgets --time-budget, --max-attempts, --max-rounds, --fix-time-budget,
// --score-threshold, retention --retention-days, --retention-runs,
// --prune-every, the state caps --upload-inflight-bytes, --run-event-bytes,
// --run-events, and the patch provider profiles Fix requests may select,
// --provider-profile (repeatable; a YAML list under provider-profile in
// the config file); plus the server's own (--addr, --log-level,
// --service-token, ...).
//
// A request may choose the CLIENT and REPLAY providers freely; COMMAND and
// OPENAI exist only as profiles, e.g.
//
//	--provider-profile 'name=agent,kind=command,timeout=5m,command=/opt/agent/propose --fast'
//	--provider-profile 'name=local,kind=openai,base-url=http://127.0.0.1:8000/v1,model=qwen2.5-coder,key-env=VLLM_KEY'
//
// The command field comes last and takes the rest of the value verbatim.
// A profile whose key-env variable is not set stops the loop at start
// (exit 2).
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
