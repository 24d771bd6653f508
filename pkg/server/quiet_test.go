package server_test

import (
	"context"
	"testing"

	"go.uber.org/zap/zapcore"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"

	"github.com/greenlight-dev/greenlight/pkg/server"
)

// A call its handler marks Quiet (a poll) logs "rpc finished" at debug
// level when it succeeds, and as any call when it fails.
func TestQuietCallsLogAtDebug(t *testing.T) {
	poll := func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		r := req.(*testpb.SimpleRequest)
		if r.GetFillServerId() {
			server.Quiet(ctx)
		}
		if r.GetFillUsername() {
			return nil, status.Error(codes.Unavailable, "engine down")
		}
		return handler(ctx, req)
	}
	h := startServer(t, testConfig(), nil, server.WithUnaryInterceptors(poll))
	ctx := timeoutCtx(t)
	tests := []struct {
		name  string
		req   *testpb.SimpleRequest
		code  codes.Code
		level zapcore.Level
	}{
		{"quiet and OK", &testpb.SimpleRequest{FillServerId: true}, codes.OK, zapcore.DebugLevel},
		{"quiet and failing", &testpb.SimpleRequest{FillServerId: true, FillUsername: true}, codes.Unavailable, zapcore.WarnLevel},
		{"not quiet", &testpb.SimpleRequest{}, codes.OK, zapcore.InfoLevel},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := h.logs.FilterMessage("rpc finished").Len()
			if _, err := h.client.UnaryCall(ctx, tt.req); status.Code(err) != tt.code {
				t.Fatalf("error = %v, want %v", err, tt.code)
			}
			entries := h.logs.FilterMessage("rpc finished").All()
			if len(entries) != before+1 {
				t.Fatalf("%d new rpc finished entries, want 1", len(entries)-before)
			}
			if e := entries[len(entries)-1]; e.Level != tt.level {
				t.Errorf("level %v, want %v", e.Level, tt.level)
			}
		})
	}
	// Outside the interceptor Quiet does nothing (and does not panic).
	server.Quiet(context.Background())
}
