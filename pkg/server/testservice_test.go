package server_test

import (
	"bytes"
	"context"
	"time"

	testgrpc "google.golang.org/grpc/interop/grpc_testing"
)

// Payload bodies that select a behaviour of testService.
const (
	bodyPanic     = "panic"      // panic in the handler
	bodyStuck     = "stuck"      // stream: block until the RPC is cancelled
	bodyIgnoreCtx = "ignore-ctx" // stream: block until the test releases it
)

// testService is grpc-go's interop TestService with behaviours the server
// tests need: panics, large answers, slow and stuck streams.
type testService struct {
	testgrpc.UnimplementedTestServiceServer
	started chan struct{} // one value per stream that began its work
	release chan struct{} // closed by the test to free ignore-ctx streams
}

func newTestService() *testService {
	return &testService{started: make(chan struct{}, 16), release: make(chan struct{})}
}

func (s *testService) UnaryCall(ctx context.Context, req *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
	if string(req.GetPayload().GetBody()) == bodyPanic {
		panic("unary handler exploded")
	}
	body := req.GetPayload().GetBody()
	if n := req.GetResponseSize(); n > 0 {
		body = bytes.Repeat([]byte("x"), int(n))
	}
	return &testgrpc.SimpleResponse{Payload: &testgrpc.Payload{Body: body}}, nil
}

func (s *testService) StreamingOutputCall(req *testgrpc.StreamingOutputCallRequest, stream testgrpc.TestService_StreamingOutputCallServer) error {
	switch string(req.GetPayload().GetBody()) {
	case bodyPanic:
		panic("stream handler exploded")
	case bodyStuck:
		s.started <- struct{}{}
		<-stream.Context().Done()
		return stream.Context().Err()
	case bodyIgnoreCtx:
		s.started <- struct{}{}
		<-s.release
		return nil
	}
	for i, p := range req.GetResponseParameters() {
		if i == 0 {
			s.started <- struct{}{}
		}
		time.Sleep(time.Duration(p.GetIntervalUs()) * time.Microsecond)
		resp := &testgrpc.StreamingOutputCallResponse{Payload: &testgrpc.Payload{Body: bytes.Repeat([]byte("y"), int(p.GetSize()))}}
		if err := stream.Send(resp); err != nil {
			return err
		}
	}
	return nil
}
