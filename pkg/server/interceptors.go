package server

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
)

type loggerKey struct{}

// LoggerFrom returns the per-RPC logger (service, method and peer already
// attached) that the logging interceptor put into ctx, or fallback when ctx
// did not come through it (nil fallback: a no-op logger).
func LoggerFrom(ctx context.Context, fallback *zap.Logger) *zap.Logger {
	if l, ok := ctx.Value(loggerKey{}).(*zap.Logger); ok {
		return l
	}
	if fallback == nil {
		return zap.NewNop()
	}
	return fallback
}

// WithLogger returns ctx carrying l, for code that calls handlers directly.
func WithLogger(ctx context.Context, l *zap.Logger) context.Context {
	return context.WithValue(ctx, loggerKey{}, l)
}

func rpcLogger(ctx context.Context, base *zap.Logger, method string) *zap.Logger {
	fields := []zap.Field{zap.String("method", method)}
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		fields = append(fields, zap.String("peer", p.Addr.String()))
	}
	return base.With(fields...)
}

type quietKey struct{}

// Quiet marks the call ctx belongs to as routine polling (a capacity poll
// every few seconds): when it succeeds its "rpc finished" line is logged
// at debug level, so a server's log shows what changed, not every poll.
// The handler logs the changes itself. Without the logging interceptor
// it does nothing.
func Quiet(ctx context.Context) {
	if q, ok := ctx.Value(quietKey{}).(*atomic.Bool); ok {
		q.Store(true)
	}
}

func unaryLogging(base *zap.Logger) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		log := rpcLogger(ctx, base, info.FullMethod)
		start := time.Now()
		quiet := new(atomic.Bool)
		resp, err := handler(context.WithValue(WithLogger(ctx, log), quietKey{}, quiet), req)
		logFinished(log, info.FullMethod, start, err, quiet.Load())
		return resp, err
	}
}

func streamLogging(base *zap.Logger) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		log := rpcLogger(ss.Context(), base, info.FullMethod)
		start := time.Now()
		quiet := new(atomic.Bool)
		err := handler(srv, &ctxStream{ServerStream: ss, ctx: context.WithValue(WithLogger(ss.Context(), log), quietKey{}, quiet)})
		logFinished(log, info.FullMethod, start, err, quiet.Load())
		return err
	}
}

// ctxStream replaces a ServerStream's context.
type ctxStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s *ctxStream) Context() context.Context { return s.ctx }

func logFinished(log *zap.Logger, method string, start time.Time, err error, quiet bool) {
	code := status.Code(err)
	level := levelFor(method, code)
	if quiet && code == codes.OK {
		level = zapcore.DebugLevel
	}
	ce := log.Check(level, "rpc finished")
	if ce == nil {
		return
	}
	fields := []zap.Field{zap.String("code", code.String()), zap.Duration("duration", time.Since(start))}
	if err != nil {
		fields = append(fields, zap.String("error", status.Convert(err).Message()))
	}
	ce.Write(fields...)
}

// levelFor keeps probes quiet and makes server-side faults stand out.
func levelFor(method string, code codes.Code) zapcore.Level {
	if strings.HasPrefix(method, "/grpc.health.") || strings.HasPrefix(method, "/grpc.reflection.") {
		return zapcore.DebugLevel
	}
	switch code {
	case codes.Unknown, codes.Internal, codes.DataLoss, codes.Unimplemented:
		return zapcore.ErrorLevel
	case codes.Unavailable, codes.DeadlineExceeded, codes.ResourceExhausted:
		return zapcore.WarnLevel
	default:
		return zapcore.InfoLevel
	}
}

// errPanic is the status a recovered panic turns into; the details stay in
// the server log, not in the answer.
var errPanic = status.Error(codes.Internal, "internal error")

func unaryRecovery() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
		defer func() {
			if r := recover(); r != nil {
				logPanic(ctx, info.FullMethod, r)
				resp, err = nil, errPanic
			}
		}()
		return handler(ctx, req)
	}
}

func streamRecovery() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) (err error) {
		defer func() {
			if r := recover(); r != nil {
				logPanic(ss.Context(), info.FullMethod, r)
				err = errPanic
			}
		}()
		return handler(srv, ss)
	}
}

func logPanic(ctx context.Context, method string, r any) {
	LoggerFrom(ctx, nil).Error("panic in handler",
		zap.String("panic", fmt.Sprint(r)),
		zap.String("stack", string(debug.Stack())))
}
