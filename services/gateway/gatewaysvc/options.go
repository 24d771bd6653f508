package gatewaysvc

import (
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/limit"
)

// ServerOptions returns the gates the gateway's gRPC server needs, built
// from a validated cfg: the per-client rate limit, then the bearer-token
// check (so that token guessing is rate limited too), which attaches the
// caller's identity. Both judge a call from its headers, before its
// request is read (server.Gate). Pass them to server.New (the binary does
// it through server.Spec.Options). With the TLS files set, the server's
// transport is TLS (and requires client certificates with a client CA).
func ServerOptions(cfg Config) ([]server.Option, error) {
	keys, err := cfg.keys()
	if err != nil {
		return nil, err
	}
	tlsCfg, err := cfg.serverTLS()
	if err != nil {
		return nil, err
	}
	lim := limit.New(float64(cfg.RateLimit), cfg.RateBurst)
	opts := []server.Option{server.WithGate(lim.Gate()), server.WithGate(keys.Gate())}
	if tlsCfg != nil {
		opts = append(opts, server.WithServerOptions(grpc.Creds(credentials.NewTLS(tlsCfg))))
	}
	return opts, nil
}
