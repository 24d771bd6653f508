package gatewaysvc

import (
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/limit"
)

// ServerOptions returns the gates the gateway's gRPC server needs, built
// from a validated cfg: the per-client rate limit, then the bearer-token
// check (so that token guessing is rate limited too), which attaches the
// caller's identity. Both judge a call from its headers, before its
// request is read (server.Gate). Pass them to server.New (the binary does
// it through server.Spec.Options).
func ServerOptions(cfg Config) ([]server.Option, error) {
	keys, err := cfg.keys()
	if err != nil {
		return nil, err
	}
	lim := limit.New(float64(cfg.RateLimit), cfg.RateBurst)
	return []server.Option{server.WithGate(lim.Gate()), server.WithGate(keys.Gate())}, nil
}
