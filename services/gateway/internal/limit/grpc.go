package limit

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
)

// healthPrefix names RPCs never limited: probes must keep working while a
// client is being throttled.
const healthPrefix = "/grpc.health.v1.Health/"

// UnaryInterceptor limits unary calls per peer IP.
func (l *Limiter) UnaryInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if err := l.check(ctx, info.FullMethod); err != nil {
			return nil, err
		}
		return handler(ctx, req)
	}
}

// StreamInterceptor limits stream openings per peer IP.
func (l *Limiter) StreamInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		if err := l.check(ss.Context(), info.FullMethod); err != nil {
			return err
		}
		return handler(srv, ss)
	}
}

func (l *Limiter) check(ctx context.Context, method string) error {
	if l == nil || strings.HasPrefix(method, healthPrefix) {
		return nil
	}
	ok, wait := l.Allow(PeerKey(ctx))
	if ok {
		return nil
	}
	return exhausted(wait)
}

// exhausted builds the ResourceExhausted status with a RetryInfo detail.
func exhausted(wait time.Duration) error {
	wait = wait.Round(time.Millisecond) + time.Millisecond
	st := status.New(codes.ResourceExhausted, fmt.Sprintf("rate limit exceeded: retry in %v", wait))
	if d, err := st.WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(wait)}); err == nil {
		st = d
	}
	return st.Err()
}

// PeerKey is the client key of an RPC: the peer's IP (the port changes with
// every connection).
func PeerKey(ctx context.Context) string {
	p, ok := peer.FromContext(ctx)
	if !ok || p.Addr == nil {
		return "unknown"
	}
	return hostOf(p.Addr.String())
}

func hostOf(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		return host
	}
	return addr
}
