// Package server is the gRPC bootstrap every greenlight service binary shares.
//
// New builds a grpc.Server with, in this order around every handler:
// logging (method, code, duration, peer; a per-RPC zap logger in the context)
// → panic recovery (a panic becomes codes.Internal, logged with its stack)
// → the caller's own interceptors (WithUnaryInterceptors, e.g. the gateway's
// auth) → the handler. It also registers the gRPC health service and server
// reflection, so `grpcurl -plaintext HOST:PORT list` works against any
// service, and applies message size limits. A request that is not a valid
// message of the method gets codes.InvalidArgument, not grpc-go's Internal
// (see decode.go).
//
// Serve and ListenAndServe run until the context is done or SIGINT/SIGTERM
// arrives, then shut down in three steps: health flips to NOT_SERVING for
// every service (load balancers and watchers stop sending), a short drain
// delay passes, and GracefulStop lets in-flight RPCs finish for up to
// ShutdownGrace before a hard Stop cancels the rest.
//
// Main turns a Spec into a whole service main function: flags/env/file via
// pkg/config, logger, server, registration, serving and exit codes.
//
// Internal services (every Spec but the gateway's, which sets Public)
// authenticate each other with a shared service token (--service-token,
// --service-token-file): WithServiceToken checks it, in constant time,
// right after logging and recovery on every RPC but health; Config.Validate
// refuses an internal listener off loopback without one; DialServiceToken
// sends it from a client connection.
package server
