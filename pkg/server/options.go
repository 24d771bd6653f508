package server

import "google.golang.org/grpc"

// Option customises New.
type Option func(*options)

type options struct {
	unary        []grpc.UnaryServerInterceptor
	stream       []grpc.StreamServerInterceptor
	grpcOptions  []grpc.ServerOption
	handleSignal bool
	serviceToken *ServiceToken
	gates        []Gate
	decode       *decodeFailures
}

// WithUnaryInterceptors adds unary interceptors that run inside logging and
// recovery (so their rejections are logged and their panics recovered), in
// the order given, before the handler.
func WithUnaryInterceptors(in ...grpc.UnaryServerInterceptor) Option {
	return func(o *options) { o.unary = append(o.unary, in...) }
}

// WithStreamInterceptors is WithUnaryInterceptors for streaming RPCs.
func WithStreamInterceptors(in ...grpc.StreamServerInterceptor) Option {
	return func(o *options) { o.stream = append(o.stream, in...) }
}

// WithServerOptions passes extra options to grpc.NewServer (keepalive,
// credentials, ...). Do not pass interceptors here; use the With*Interceptors
// options so the order around the handler stays defined.
func WithServerOptions(opts ...grpc.ServerOption) Option {
	return func(o *options) { o.grpcOptions = append(o.grpcOptions, opts...) }
}

// WithoutSignals stops Serve and ListenAndServe from reacting to SIGINT and
// SIGTERM: only the context ends serving. For embedded use, where the
// process owner handles signals once for several servers.
func WithoutSignals() Option {
	return func(o *options) { o.handleSignal = false }
}
