package server

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/tap"
)

// Gate admits or refuses a call from its full method name and its
// metadata alone, before a byte of the request is read: authentication
// (the service token, the gateway's bearer tokens) and the rate limit that
// guards it. It returns the context the call continues with (a gate may
// attach who the caller is) or a status error, which is the call's answer.
// A gate runs on the connection's reading goroutine (grpc's tap handle):
// it must be quick and must not block.
type Gate func(ctx context.Context, method string, md metadata.MD) (context.Context, error)

// WithGate adds g to the server's gates; gates run in the order given,
// after the service-token gate (WithServiceToken), and the first refusal
// ends the call.
func WithGate(g Gate) Option {
	return func(o *options) { o.gates = append(o.gates, g) }
}

// gatedKey marks a context that went through the gates at the transport,
// so the interceptors do not run them a second time.
type gatedKey struct{}

// gates is the ordered list of a server's gates.
type gates []Gate

// run passes a call through every gate.
func (gs gates) run(ctx context.Context, method string, md metadata.MD) (context.Context, error) {
	for _, g := range gs {
		var err error
		if ctx, err = g(ctx, method, md); err != nil {
			return nil, err
		}
	}
	return context.WithValue(ctx, gatedKey{}, true), nil
}

// tapHandle runs the gates when a stream's headers arrive: a refused call
// is answered with its status before its first message is even read, let
// alone decoded.
func (gs gates) tapHandle(ctx context.Context, info *tap.Info) (context.Context, error) {
	return gs.run(ctx, info.FullMethodName, info.Header)
}

// ungated runs the gates for a call that did not pass the tap handle: one
// served through grpc.Server.ServeHTTP (the gateway's HTTP/JSON calls),
// where grpc has no tap. Such callers check authentication before reading
// the body themselves (see the gateway's HTTP guard); this is the second
// line.
func (gs gates) ungated(ctx context.Context, method string) (context.Context, error) {
	if gated, _ := ctx.Value(gatedKey{}).(bool); gated {
		return ctx, nil
	}
	md, _ := metadata.FromIncomingContext(ctx)
	return gs.run(ctx, method, md)
}

// unaryInterceptor is gates.ungated for unary calls.
func (gs gates) unaryInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		ctx, err := gs.ungated(ctx, info.FullMethod)
		if err != nil {
			return nil, err
		}
		return handler(ctx, req)
	}
}

// streamInterceptor is gates.ungated for streaming calls.
func (gs gates) streamInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		ctx, err := gs.ungated(ss.Context(), info.FullMethod)
		if err != nil {
			return err
		}
		return handler(srv, &ctxStream{ServerStream: ss, ctx: ctx})
	}
}
