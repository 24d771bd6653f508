package auth

import (
	"context"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
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

// authorized checks the "authorization" metadata of an incoming RPC. Only
// the first value counts; several values are refused as ambiguous.
func (t *Token) authorized(ctx context.Context) bool {
	if !t.Enabled() {
		return true
	}
	vals := metadata.ValueFromIncomingContext(ctx, "authorization")
	return len(vals) == 1 && t.CheckBearer(vals[0])
}

// UnaryInterceptor refuses unary RPCs without the token.
func (t *Token) UnaryInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if !exempt(info.FullMethod) && !t.authorized(ctx) {
			return nil, errUnauthenticated
		}
		return handler(ctx, req)
	}
}

// StreamInterceptor refuses streaming RPCs (reflection included) without
// the token, before the handler reads anything.
func (t *Token) StreamInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		if !exempt(info.FullMethod) && !t.authorized(ss.Context()) {
			return errUnauthenticated
		}
		return handler(srv, ss)
	}
}
