package gatewaysvc

import (
	"context"
	"crypto/rand"
	"encoding/hex"

	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
)

// Metadata the gateway sends to the loop. Nothing else of the client's
// metadata travels on: in particular not its authorization header, which
// is the gateway's business alone.
const (
	// RequestIDKey correlates one request across gateway and loop logs; a
	// client's own value is kept, otherwise the gateway makes one.
	RequestIDKey = "x-request-id"
	// ForwardedForKey carries the client's address.
	ForwardedForKey = "x-forwarded-for"
)

// maxRequestIDLen bounds a client-chosen request id.
const maxRequestIDLen = 128

// upstreamContext derives the context of an upstream call from the
// incoming one: same cancellation and deadline, chosen metadata only.
func upstreamContext(ctx context.Context) context.Context {
	in, _ := metadata.FromIncomingContext(ctx)
	id := first(in, RequestIDKey)
	if id == "" || len(id) > maxRequestIDLen {
		id = newRequestID()
	}
	out := metadata.Pairs(RequestIDKey, id)
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		out.Append(ForwardedForKey, p.Addr.String())
	}
	return metadata.NewOutgoingContext(ctx, out)
}

func first(md metadata.MD, key string) string {
	if v := md.Get(key); len(v) > 0 {
		return v[0]
	}
	return ""
}

func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// upstreamContextHTTP is upstreamContext for calls made on behalf of an
// HTTP request: a fresh request id (HTTP requests carry no gRPC metadata).
func upstreamContextHTTP(ctx context.Context) context.Context {
	return metadata.NewOutgoingContext(ctx, metadata.Pairs(RequestIDKey, newRequestID()))
}
