package gatewaysvc

import (
	"context"
	"net"
	"testing"

	"go.uber.org/zap/zaptest"
	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/loopfake"
)

// testToken is the bearer token of gateways started with a token.
const testToken = "test-token-0123456789abcdef"

// gateway is a gateway served in-process in front of a fake loop.
type gateway struct {
	loop    *loopfake.Loop
	svc     *Service
	addr    string
	conn    *grpc.ClientConn
	runs    glv1.RunServiceClient
	blobs   glv1.BlobServiceClient
	httpURL string
}

// startGateway serves a gateway (gRPC and HTTP on loopback) in front of a
// fresh fake loop. mutate adjusts the gateway and server configuration.
func startGateway(t *testing.T, mutate func(*Config, *server.Config)) *gateway {
	t.Helper()
	loop := loopfake.Start(t)
	cfg := DefaultConfig()
	cfg.HTTPAddr, cfg.GRPCAddr = "127.0.0.1:0", "127.0.0.1:0"
	scfg := server.DefaultConfig("gateway", "127.0.0.1:0")
	scfg.DrainDelay = 0
	if mutate != nil {
		mutate(&cfg, &scfg)
	}
	log := zaptest.NewLogger(t)
	ctx, cancel := context.WithCancel(context.Background())
	svc, err := New(ctx, cfg, log, WithUpstream(loop.Conn))
	if err != nil {
		t.Fatal(err)
	}
	opts, err := ServerOptions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(scfg, log, append(opts, server.WithoutSignals())...)
	svc.Register(srv.GRPC())
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, lis) }()
	t.Cleanup(func() {
		cancel()
		<-served
		if err := svc.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	g := &gateway{loop: loop, svc: svc, addr: lis.Addr().String(), httpURL: "http://" + svc.HTTPAddr()}
	g.conn = g.dial(t)
	g.runs, g.blobs = glv1.NewRunServiceClient(g.conn), glv1.NewBlobServiceClient(g.conn)
	return g
}

// dial opens a new client connection to the gateway.
func (g *gateway) dial(t *testing.T, opts ...grpc.DialOption) *grpc.ClientConn {
	t.Helper()
	conn, err := server.Dial(g.addr, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}
