package gatewaysvc

import (
	"fmt"

	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/auth"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/limit"
)

// ServerOptions returns the interceptors the gateway's gRPC server needs,
// built from a validated cfg: the per-client rate limit, then the bearer
// token check (so that token guessing is rate limited too). Pass them to
// server.New (the binary does it through server.Spec.Options).
func ServerOptions(cfg Config) ([]server.Option, error) {
	tok, err := auth.New(cfg.Token)
	if err != nil {
		return nil, fmt.Errorf("%w: token: %w", ErrConfig, err)
	}
	lim := limit.New(float64(cfg.RateLimit), cfg.RateBurst)
	return []server.Option{
		server.WithUnaryInterceptors(lim.UnaryInterceptor(), tok.UnaryInterceptor()),
		server.WithStreamInterceptors(lim.StreamInterceptor(), tok.StreamInterceptor()),
	}, nil
}
