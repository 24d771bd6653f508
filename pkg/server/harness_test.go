package server_test

import (
	"context"
	"net"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
	"google.golang.org/grpc"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"

	"github.com/greenlight-dev/greenlight/pkg/server"
)

const testServiceName = "grpc.testing.TestService"

// harness is a real server on loopback TCP with a client connected to it.
type harness struct {
	srv    *server.Server
	svc    *testService
	conn   *grpc.ClientConn
	client testgrpc.TestServiceClient
	logs   *observer.ObservedLogs
	cancel context.CancelFunc
	served chan error // Serve's result
}

// testConfig is a fast-shutdown configuration for tests.
func testConfig() server.Config {
	cfg := server.DefaultConfig("test", "127.0.0.1:0")
	cfg.DrainDelay = 0
	cfg.ShutdownGrace = 2 * time.Second
	return cfg
}

// startServer serves testService with cfg; before runs after registration
// and before Serve. Signals are left alone unless opts say otherwise.
func startServer(t *testing.T, cfg server.Config, before func(*server.Server), opts ...server.Option) *harness {
	t.Helper()
	core, logs := observer.New(zapcore.DebugLevel)
	opts = append([]server.Option{server.WithoutSignals()}, opts...)
	h := &harness{svc: newTestService(), logs: logs, served: make(chan error, 1)}
	h.srv = server.New(cfg, zap.New(core), opts...)
	testgrpc.RegisterTestServiceServer(h.srv.GRPC(), h.svc)
	if before != nil {
		before(h.srv)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	go func() { h.served <- h.srv.Serve(ctx, lis) }()
	h.conn, err = server.Dial(lis.Addr().String())
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	h.client = testgrpc.NewTestServiceClient(h.conn)
	t.Cleanup(func() {
		cancel()
		_ = h.conn.Close()
		select {
		case <-h.served:
		case <-time.After(10 * time.Second):
			t.Errorf("server did not stop at cleanup")
		}
	})
	return h
}

// stop cancels the serve context and returns Serve's result and how long
// Serve took to return.
func (h *harness) stop(t *testing.T, limit time.Duration) (time.Duration, error) {
	t.Helper()
	start := time.Now()
	h.cancel()
	select {
	case err := <-h.served:
		h.served <- err // keep it for cleanup
		return time.Since(start), err
	case <-time.After(limit):
		t.Fatalf("Serve did not return within %v", limit)
		return 0, nil
	}
}

func timeoutCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}
