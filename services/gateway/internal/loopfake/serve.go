package loopfake

import (
	"context"
	"net"
	"testing"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
)

// Loop is a running fake loop: the fake RunService plus a real BlobService
// over a temporary store, served on an in-memory listener.
type Loop struct {
	*Server
	// Blobs is the blob store behind the BlobService.
	Blobs *blob.Store
	// Conn is a client connection to the fake.
	Conn *grpc.ClientConn

	grpc *grpc.Server
}

// Kill stops the fake at once, failing every open stream, as a crashed
// loop would.
func (l *Loop) Kill() { l.grpc.Stop() }

// Start serves a fresh fake until the test ends.
func Start(t testing.TB) *Loop {
	t.Helper()
	store, err := blob.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	fake := New()
	srv := grpc.NewServer()
	glv1.RegisterRunServiceServer(srv, fake)
	glv1.RegisterBlobServiceServer(srv, blob.NewServer(store, zap.NewNop()))
	lis := bufconn.Listen(1 << 20)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient("passthrough:///loopfake",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return &Loop{Server: fake, Blobs: store, Conn: conn, grpc: srv}
}
