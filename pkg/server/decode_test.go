package server_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// garbage is not a protobuf message: field 0 does not exist.
var garbage = rawBytes{0x00, 0xff, 0xff, 0xff, 0xff}

// rawBytes is a message sent as is by rawCodec.
type rawBytes []byte

// rawCodec sends rawBytes unchanged, as a client that sends garbage would.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) {
	b, ok := v.(rawBytes)
	if !ok {
		return nil, fmt.Errorf("rawCodec sends rawBytes, not %T", v)
	}
	return b, nil
}

func (rawCodec) Unmarshal(data []byte, v any) error {
	p, ok := v.(*rawBytes)
	if !ok {
		return fmt.Errorf("rawCodec receives into *rawBytes, not %T", v)
	}
	*p = append(rawBytes(nil), data...)
	return nil
}

func (rawCodec) Name() string { return "proto" }

// TestGarbageRequestIsInvalidArgument: bytes that are not the method's
// request message get InvalidArgument naming the message, for unary and
// streaming methods, and the handler never runs.
func TestGarbageRequestIsInvalidArgument(t *testing.T) {
	h := startServer(t, testConfig(), nil)
	const wantMsg = "is not a valid grpc.testing."

	var out rawBytes
	err := h.conn.Invoke(timeoutCtx(t), "/grpc.testing.TestService/UnaryCall", garbage, &out, grpc.ForceCodec(rawCodec{}))
	assertInvalidArgument(t, "unary", err, wantMsg+"SimpleRequest message")

	err = streamGarbage(timeoutCtx(t), h.conn, "/grpc.testing.TestService/StreamingOutputCall")
	assertInvalidArgument(t, "server stream", err, wantMsg+"StreamingOutputCallRequest message")

	// A good request afterwards still works: the failure was not sticky.
	if _, err := h.client.UnaryCall(timeoutCtx(t), nil); err != nil {
		t.Errorf("valid request after garbage: %v", err)
	}
}

// streamGarbage opens a server-streaming call, sends garbage as its request
// and returns the call's status.
func streamGarbage(ctx context.Context, conn *grpc.ClientConn, method string) error {
	desc := &grpc.StreamDesc{StreamName: method, ServerStreams: true}
	cs, err := conn.NewStream(ctx, desc, method, grpc.ForceCodec(rawCodec{}))
	if err != nil {
		return err
	}
	if err := cs.SendMsg(garbage); err != nil {
		return err
	}
	if err := cs.CloseSend(); err != nil {
		return err
	}
	var out rawBytes
	for {
		if err := cs.RecvMsg(&out); err != nil {
			return err
		}
	}
}

func assertInvalidArgument(t *testing.T, what string, err error, msg string) {
	t.Helper()
	st := status.Convert(err)
	if st.Code() != codes.InvalidArgument || !strings.Contains(st.Message(), msg) {
		t.Errorf("%s: got %v %q, want InvalidArgument containing %q", what, st.Code(), st.Message(), msg)
	}
}
