package server

import (
	"context"
	"errors"
	"io"
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

const gateTestToken = "gate-test-service-token-0123456789"

// callerKey is what the test gate attaches to an admitted call's context.
type callerKey struct{}

// echoCaller answers with the caller the gate attached.
type echoCaller struct {
	testgrpc.UnimplementedTestServiceServer
}

func (echoCaller) UnaryCall(ctx context.Context, _ *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
	who, _ := ctx.Value(callerKey{}).(string)
	return &testgrpc.SimpleResponse{Username: who}, nil
}

func (echoCaller) FullDuplexCall(stream testgrpc.TestService_FullDuplexCallServer) error {
	if _, err := stream.Recv(); err != nil {
		return err
	}
	who, _ := stream.Context().Value(callerKey{}).(string)
	return stream.Send(&testgrpc.StreamingOutputCallResponse{Payload: &testgrpc.Payload{Body: []byte(who)}})
}

// TestGatesRunBeforeDecoding: the service token and a server's gates judge
// a call from its headers alone. A refused call, garbage body or not, gets
// the gate's status and its bytes are never decoded; an admitted call's
// garbage is InvalidArgument, and the context a gate returns reaches the
// handler, unary and streaming.
func TestGatesRunBeforeDecoding(t *testing.T) {
	tok, err := NewServiceToken(gateTestToken)
	if err != nil {
		t.Fatal(err)
	}
	gate := func(ctx context.Context, method string, md metadata.MD) (context.Context, error) {
		who := md.Get("x-test-caller")
		if len(who) != 1 || who[0] == "mallory" {
			return nil, status.Error(codes.PermissionDenied, "not you")
		}
		return context.WithValue(ctx, callerKey{}, who[0]), nil
	}
	srv := New(DefaultConfig("test", "127.0.0.1:0"), nil, WithoutSignals(), WithServiceToken(tok), WithGate(gate))
	testgrpc.RegisterTestServiceServer(srv.GRPC(), echoCaller{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	go func() { _ = srv.Serve(ctx, lis) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	garbage := func(ctx context.Context) error {
		var out garbageBytes
		return conn.Invoke(ctx, "/grpc.testing.TestService/UnaryCall", garbageBytes{0x00, 0xff, 0xff}, &out, grpc.ForceCodec(bytesCodec{}))
	}
	garbageStream := func(ctx context.Context) error {
		desc := &grpc.StreamDesc{ClientStreams: true, ServerStreams: true}
		st, err := conn.NewStream(ctx, desc, "/grpc.testing.TestService/FullDuplexCall", grpc.ForceCodec(bytesCodec{}))
		if err != nil {
			return err
		}
		// A refused stream may already be closed by the server when the
		// message goes out: SendMsg then says io.EOF and the status is
		// what RecvMsg returns, as grpc-go documents.
		if err := st.SendMsg(garbageBytes{0x00, 0xff, 0xff}); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		var out garbageBytes
		return st.RecvMsg(&out)
	}
	withMD := func(kv ...string) context.Context { return metadata.AppendToOutgoingContext(ctx, kv...) }
	refused := []struct {
		name string
		ctx  context.Context
		want codes.Code
	}{
		{"no token", ctx, codes.Unauthenticated},
		{"wrong token", withMD(ServiceTokenKey, "wrong-service-token-0123456789"), codes.Unauthenticated},
		{"wrong token, caller set", withMD(ServiceTokenKey, "wrong-service-token-0123456789", "x-test-caller", "alice"), codes.Unauthenticated},
		{"token, gate refuses", withMD(ServiceTokenKey, gateTestToken, "x-test-caller", "mallory"), codes.PermissionDenied},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			before := srv.decode.decodes.Load()
			if err := garbage(tt.ctx); status.Code(err) != tt.want {
				t.Errorf("unary garbage: %v, want %v", err, tt.want)
			}
			if err := garbageStream(tt.ctx); status.Code(err) != tt.want {
				t.Errorf("streamed garbage: %v, want %v", err, tt.want)
			}
			if n := srv.decode.decodes.Load() - before; n != 0 {
				t.Errorf("%d request messages decoded for refused calls", n)
			}
		})
	}

	admitted := withMD(ServiceTokenKey, gateTestToken, "x-test-caller", "alice")
	if err := garbage(admitted); status.Code(err) != codes.InvalidArgument {
		t.Errorf("admitted garbage: %v, want InvalidArgument", err)
	}
	client := testgrpc.NewTestServiceClient(conn)
	resp, err := client.UnaryCall(admitted, &testgrpc.SimpleRequest{})
	if err != nil || resp.GetUsername() != "alice" {
		t.Errorf("unary call = %v, %v; want the gate's caller alice", resp, err)
	}
	st, err := client.FullDuplexCall(admitted)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Send(&testgrpc.StreamingOutputCallRequest{}); err != nil {
		t.Fatal(err)
	}
	if out, err := st.Recv(); err != nil || string(out.GetPayload().GetBody()) != "alice" {
		t.Errorf("stream = %v, %v; want the gate's caller alice", out, err)
	}
}
