package limit

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/greenlight-dev/greenlight/pkg/server"
)

// healthPrefix names RPCs never limited: probes must keep working while a
// client is being throttled.
const healthPrefix = "/grpc.health.v1.Health/"

// Gate limits calls per peer IP when their headers arrive, before the
// request is read; it runs ahead of the token check, so guessing tokens is
// limited too.
func (l *Limiter) Gate() server.Gate {
	return func(ctx context.Context, method string, _ metadata.MD) (context.Context, error) {
		if err := l.check(ctx, method); err != nil {
			return nil, err
		}
		return ctx, nil
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
