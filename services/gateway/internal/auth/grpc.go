package auth

import (
	"context"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/greenlight-dev/greenlight/pkg/server"
)

// errUnauthenticated is the one answer every refused RPC gets: no hint
// whether the token was missing, malformed or wrong.
var errUnauthenticated = status.Error(codes.Unauthenticated, "unauthenticated")

// healthPrefix names the RPCs open without a token, so that load balancers
// and compose health checks need no secret. Health reveals nothing but
// "serving".
const healthPrefix = "/grpc.health.v1.Health/"

// exempt reports whether method may be called without a token.
func exempt(method string) bool { return strings.HasPrefix(method, healthPrefix) }

// Gate checks the "authorization" metadata of an incoming RPC (health
// excepted, reflection included) when its headers arrive, before a byte
// of its request is read or decoded, and attaches the caller's Identity to
// the call's context. Only one value is accepted; several are refused as
// ambiguous.
func (k *Keys) Gate() server.Gate {
	return func(ctx context.Context, method string, md metadata.MD) (context.Context, error) {
		if exempt(method) {
			return ctx, nil
		}
		vals := md.Get("authorization")
		if k.Enabled() && len(vals) != 1 {
			return nil, errUnauthenticated
		}
		header := ""
		if len(vals) == 1 {
			header = vals[0]
		}
		id, ok := k.Bearer(header)
		if !ok {
			return nil, errUnauthenticated
		}
		return WithIdentity(ctx, id), nil
	}
}
