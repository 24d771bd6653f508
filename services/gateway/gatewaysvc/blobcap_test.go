package gatewaysvc

import (
	"context"
	"errors"
	"io"
	"net"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// lenientBlobs accepts any upload without checking digests, as a blob
// store with no cap would: the gateway's own cap must still hold.
type lenientBlobs struct {
	glv1.UnimplementedBlobServiceServer
	received  atomic.Int64
	cancelled chan struct{}
}

func (b *lenientBlobs) Write(stream grpc.ClientStreamingServer[glv1.WriteRequest, glv1.WriteResponse]) error {
	for {
		msg, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return stream.SendAndClose(&glv1.WriteResponse{})
		}
		if err != nil {
			close(b.cancelled)
			return err
		}
		b.received.Add(int64(len(msg.GetData())))
	}
}

// serveBufconn serves register's services in memory and returns a client
// connection.
func serveBufconn(t *testing.T, register func(*grpc.Server)) *grpc.ClientConn {
	t.Helper()
	srv := grpc.NewServer()
	register(srv)
	lis := bufconn.Listen(1 << 20)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient("passthrough:///bufconn",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

func TestUploadCapHoldsWhateverTheUpstreamChecks(t *testing.T) {
	const limit, chunk = 1 << 20, 64 << 10
	up := &lenientBlobs{cancelled: make(chan struct{})}
	upConn := serveBufconn(t, func(s *grpc.Server) { glv1.RegisterBlobServiceServer(s, up) })
	proxy := &blobProxy{up: glv1.NewBlobServiceClient(upConn), maxUpload: limit}
	gwConn := serveBufconn(t, func(s *grpc.Server) { glv1.RegisterBlobServiceServer(s, proxy) })

	stream, err := glv1.NewBlobServiceClient(gwConn).Write(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	data := make([]byte, chunk)
	// Declares 100 bytes and keeps sending: only the running total can stop it.
	if err := stream.Send(&glv1.WriteRequest{Digest: &glv1.Digest{Hash: "00", SizeBytes: 100}, Data: data}); err != nil {
		t.Fatal(err)
	}
	for range 4 * limit / chunk {
		if stream.Send(&glv1.WriteRequest{Data: data}) != nil {
			break
		}
	}
	_, err = stream.CloseAndRecv()
	if status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("upload = %v, want ResourceExhausted", err)
	}
	<-up.cancelled // the upstream call was cancelled, not completed
	if got := up.received.Load(); got > limit {
		t.Fatalf("upstream received %d bytes, more than the %d cap", got, limit)
	}
}
