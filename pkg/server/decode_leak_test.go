package server

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// garbageBytes is sent as is by bytesCodec: not a valid SimpleRequest.
type garbageBytes []byte

type bytesCodec struct{}

func (bytesCodec) Marshal(v any) ([]byte, error) { return v.(garbageBytes), nil }
func (bytesCodec) Unmarshal(data []byte, v any) error {
	*v.(*garbageBytes) = append(garbageBytes(nil), data...)
	return nil
}
func (bytesCodec) Name() string { return "proto" }

// TestGarbageRefusedBeforeAuthLeavesNoRecord: a unary request that does
// not decode is recorded before any interceptor runs; when the
// service-token check refuses the call, the record must still be taken, or
// every unauthenticated garbage request would stay in memory for good.
func TestGarbageRefusedBeforeAuthLeavesNoRecord(t *testing.T) {
	tok, err := NewServiceToken("decode-leak-test-token-0123456789")
	if err != nil {
		t.Fatal(err)
	}
	srv := New(DefaultConfig("test", "127.0.0.1:0"), nil, WithoutSignals(), WithServiceToken(tok))
	testgrpc.RegisterTestServiceServer(srv.GRPC(), testgrpc.UnimplementedTestServiceServer{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	go func() { _ = srv.Serve(ctx, lis) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	var out garbageBytes
	call := func(ctx context.Context) error {
		return conn.Invoke(ctx, "/grpc.testing.TestService/UnaryCall", garbageBytes{0x00, 0xff, 0xff}, &out, grpc.ForceCodec(bytesCodec{}))
	}
	for range 20 {
		if err := call(ctx); status.Code(err) != codes.Unauthenticated {
			t.Fatalf("garbage without the token: %v, want Unauthenticated", err)
		}
	}
	if n := srv.decode.pending(); n != 0 {
		t.Errorf("%d decode failures left behind by refused calls", n)
	}
	// With the token, the same bytes are still InvalidArgument.
	authed := metadata.AppendToOutgoingContext(ctx, ServiceTokenKey, "decode-leak-test-token-0123456789")
	if err := call(authed); status.Code(err) != codes.InvalidArgument {
		t.Errorf("garbage with the token: %v, want InvalidArgument", err)
	}
}
