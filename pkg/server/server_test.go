package server_test

import (
	"context"
	"errors"
	"io"
	"net"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/zap/zapcore"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"

	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/pkg/server/servertest"
)

func TestHealthReportsServing(t *testing.T) {
	h := startServer(t, testConfig(), nil)
	ctx := timeoutCtx(t)
	tests := []struct {
		service string
		want    healthpb.HealthCheckResponse_ServingStatus
		code    codes.Code
	}{
		{service: "", want: healthpb.HealthCheckResponse_SERVING},
		{service: testServiceName, want: healthpb.HealthCheckResponse_SERVING},
		{service: "grpc.reflection.v1.ServerReflection", want: healthpb.HealthCheckResponse_SERVING},
		{service: "no.such.Service", code: codes.NotFound},
	}
	for _, tt := range tests {
		t.Run(tt.service, func(t *testing.T) {
			got, err := servertest.Health(ctx, h.conn, tt.service)
			if status.Code(err) != tt.code {
				t.Fatalf("Check(%q) error = %v, want code %v", tt.service, err, tt.code)
			}
			if err == nil && got != tt.want {
				t.Fatalf("Check(%q) = %v, want %v", tt.service, got, tt.want)
			}
		})
	}
}

func TestSetServingBeforeServeIsKept(t *testing.T) {
	h := startServer(t, testConfig(), func(s *server.Server) { s.SetServing(testServiceName, false) })
	ctx := timeoutCtx(t)
	if got, err := servertest.Health(ctx, h.conn, testServiceName); err != nil || got != healthpb.HealthCheckResponse_NOT_SERVING {
		t.Fatalf("Check = %v, %v; want NOT_SERVING", got, err)
	}
	h.srv.SetServing(testServiceName, true)
	if got, err := servertest.Health(ctx, h.conn, testServiceName); err != nil || got != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("after SetServing(true): Check = %v, %v; want SERVING", got, err)
	}
	if got, err := servertest.Health(ctx, h.conn, ""); err != nil || got != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("overall Check = %v, %v; want SERVING", got, err)
	}
}

func TestReflectionListsServices(t *testing.T) {
	h := startServer(t, testConfig(), nil)
	got, err := servertest.ListServices(timeoutCtx(t), h.conn)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection", testServiceName}
	if !slices.Equal(got, want) {
		t.Fatalf("services = %v, want %v", got, want)
	}
}

func TestPanicBecomesInternalAndServerKeepsServing(t *testing.T) {
	h := startServer(t, testConfig(), nil)
	ctx := timeoutCtx(t)
	tests := []struct {
		name string
		call func() error
	}{
		{"unary", func() error {
			_, err := h.client.UnaryCall(ctx, &testpb.SimpleRequest{Payload: &testpb.Payload{Body: []byte(bodyPanic)}})
			return err
		}},
		{"stream", func() error {
			stream, err := h.client.StreamingOutputCall(ctx, &testpb.StreamingOutputCallRequest{Payload: &testpb.Payload{Body: []byte(bodyPanic)}})
			if err != nil {
				return err
			}
			_, err = stream.Recv()
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := h.logs.FilterMessage("panic in handler").Len()
			err := tt.call()
			if status.Code(err) != codes.Internal {
				t.Fatalf("error = %v, want Internal", err)
			}
			if strings.Contains(status.Convert(err).Message(), "exploded") {
				t.Errorf("panic value leaked to the client: %v", err)
			}
			entries := h.logs.FilterMessage("panic in handler").All()
			if len(entries) != before+1 {
				t.Fatalf("panic log entries = %d, want %d", len(entries), before+1)
			}
			fields := entries[len(entries)-1].ContextMap()
			if !strings.Contains(fields["stack"].(string), "StreamingOutputCall") && !strings.Contains(fields["stack"].(string), "UnaryCall") {
				t.Errorf("stack does not name the handler:\n%s", fields["stack"])
			}
			if _, err := h.client.UnaryCall(ctx, &testpb.SimpleRequest{Payload: &testpb.Payload{Body: []byte("hi")}}); err != nil {
				t.Fatalf("next call after panic failed: %v", err)
			}
		})
	}
}

func TestMessageSizeLimits(t *testing.T) {
	cfg := testConfig()
	cfg.MaxRecvMsgBytes = 1024
	cfg.MaxSendMsgBytes = 1024
	h := startServer(t, cfg, nil)
	ctx := timeoutCtx(t)
	tests := []struct {
		name     string
		reqBody  int
		respSize int32
		want     codes.Code
	}{
		{"small request and answer", 100, 100, codes.OK},
		{"request over receive limit", 2048, 0, codes.ResourceExhausted},
		{"answer over send limit", 10, 4096, codes.ResourceExhausted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := &testpb.SimpleRequest{ResponseSize: tt.respSize, Payload: &testpb.Payload{Body: make([]byte, tt.reqBody)}}
			_, err := h.client.UnaryCall(ctx, req)
			if status.Code(err) != tt.want {
				t.Fatalf("error = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestLoggingInterceptorRecordsEachRPC(t *testing.T) {
	h := startServer(t, testConfig(), nil)
	ctx := timeoutCtx(t)
	if _, err := h.client.UnaryCall(ctx, &testpb.SimpleRequest{}); err != nil {
		t.Fatal(err)
	}
	_, err := h.client.EmptyCall(ctx, &testpb.Empty{})
	if status.Code(err) != codes.Unimplemented {
		t.Fatalf("EmptyCall error = %v, want Unimplemented", err)
	}
	tests := []struct {
		method string
		code   string
		level  zapcore.Level
	}{
		{"/grpc.testing.TestService/UnaryCall", "OK", zapcore.InfoLevel},
		{"/grpc.testing.TestService/EmptyCall", "Unimplemented", zapcore.ErrorLevel},
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			entries := h.logs.FilterMessage("rpc finished").FilterField(stringField("method", tt.method)).All()
			if len(entries) != 1 {
				t.Fatalf("entries for %s = %d, want 1", tt.method, len(entries))
			}
			e := entries[0]
			fields := e.ContextMap()
			if fields["code"] != tt.code || e.Level != tt.level {
				t.Errorf("code, level = %v, %v; want %v, %v", fields["code"], e.Level, tt.code, tt.level)
			}
			if _, ok := fields["duration"]; !ok {
				t.Errorf("no duration field: %v", fields)
			}
			if p, _ := fields["peer"].(string); !strings.HasPrefix(p, "127.0.0.1:") {
				t.Errorf("peer = %q, want a loopback address", p)
			}
		})
	}
}

func TestCallerInterceptorsRunInsideLoggingAndRecovery(t *testing.T) {
	var sawLogger bool
	auth := func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		sawLogger = server.LoggerFrom(ctx, nil).Core().Enabled(zapcore.InfoLevel)
		if req.(*testpb.SimpleRequest).GetFillUsername() {
			return nil, status.Error(codes.Unauthenticated, "no token")
		}
		if req.(*testpb.SimpleRequest).GetFillOauthScope() {
			panic("interceptor exploded")
		}
		return handler(ctx, req)
	}
	h := startServer(t, testConfig(), nil, server.WithUnaryInterceptors(auth))
	ctx := timeoutCtx(t)
	tests := []struct {
		name string
		req  *testpb.SimpleRequest
		want codes.Code
	}{
		{"passes", &testpb.SimpleRequest{}, codes.OK},
		{"rejects", &testpb.SimpleRequest{FillUsername: true}, codes.Unauthenticated},
		{"panics", &testpb.SimpleRequest{FillOauthScope: true}, codes.Internal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := h.client.UnaryCall(ctx, tt.req)
			if status.Code(err) != tt.want {
				t.Fatalf("error = %v, want %v", err, tt.want)
			}
			logged := h.logs.FilterMessage("rpc finished").FilterField(stringField("code", tt.want.String())).Len()
			if logged == 0 {
				t.Errorf("no rpc finished entry with code %v", tt.want)
			}
		})
	}
	if !sawLogger {
		t.Error("caller interceptor did not get the per-RPC logger")
	}
}

func TestShutdownFlipsHealthThenDrains(t *testing.T) {
	cfg := testConfig()
	cfg.DrainDelay = 700 * time.Millisecond
	h := startServer(t, cfg, nil)
	ctx := timeoutCtx(t)
	watch, err := healthpb.NewHealthClient(h.conn).Watch(ctx, &healthpb.HealthCheckRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := watch.Recv(); err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("first Watch answer = %v, %v; want SERVING", resp, err)
	}

	start := time.Now()
	h.cancel()
	resp, err := watch.Recv()
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_NOT_SERVING {
		t.Fatalf("Watch after cancel = %v, %v; want NOT_SERVING", resp, err)
	}
	// During the drain delay the server still answers, with NOT_SERVING.
	got, err := servertest.Health(ctx, h.conn, testServiceName)
	if err != nil || got != healthpb.HealthCheckResponse_NOT_SERVING {
		t.Fatalf("Check during drain = %v, %v; want NOT_SERVING", got, err)
	}
	if _, err := watch.Recv(); status.Code(err) != codes.Unavailable {
		t.Fatalf("Watch end = %v, want Unavailable", err)
	}
	select {
	case err := <-h.served:
		h.served <- err
		if err != nil {
			t.Fatalf("Serve = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return; a health watcher must not hold shutdown")
	}
	if elapsed := time.Since(start); elapsed < cfg.DrainDelay || elapsed > cfg.DrainDelay+time.Second {
		t.Errorf("shutdown took %v, want about the drain delay %v", elapsed, cfg.DrainDelay)
	}
}

func TestShutdownLetsInFlightStreamFinish(t *testing.T) {
	cfg := testConfig()
	cfg.ShutdownGrace = 5 * time.Second
	h := startServer(t, cfg, nil)
	ctx := timeoutCtx(t)
	params := make([]*testpb.ResponseParameters, 4)
	for i := range params {
		params[i] = &testpb.ResponseParameters{Size: 10, IntervalUs: 200_000}
	}
	stream, err := h.client.StreamingOutputCall(ctx, &testpb.StreamingOutputCallRequest{ResponseParameters: params})
	if err != nil {
		t.Fatal(err)
	}
	<-h.svc.started

	received := make(chan int, 1)
	go func() {
		n := 0
		for {
			if _, err := stream.Recv(); err != nil {
				if !errors.Is(err, io.EOF) {
					t.Errorf("stream ended with %v, want EOF", err)
				}
				received <- n
				return
			}
			n++
		}
	}()
	took, err := h.stop(t, cfg.ShutdownGrace+3*time.Second)
	if err != nil {
		t.Fatalf("Serve = %v, want nil", err)
	}
	if n := <-received; n != len(params) {
		t.Fatalf("received %d messages, want %d", n, len(params))
	}
	if took >= cfg.ShutdownGrace {
		t.Errorf("shutdown took %v; the stream needed under 1s of the %v grace", took, cfg.ShutdownGrace)
	}
	// New RPCs are refused once the server stopped.
	if _, err := h.client.UnaryCall(ctx, &testpb.SimpleRequest{}); status.Code(err) != codes.Unavailable {
		t.Errorf("call after shutdown = %v, want Unavailable", err)
	}
}

func TestShutdownHardStopsStuckStreams(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		maxTook time.Duration // grace plus slack; ignore-ctx adds the abandon wait
	}{
		{"stuck until cancelled", bodyStuck, 1500 * time.Millisecond},
		{"ignores cancellation", bodyIgnoreCtx, 4 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.ShutdownGrace = 500 * time.Millisecond
			h := startServer(t, cfg, nil)
			t.Cleanup(func() { close(h.svc.release) })
			ctx := timeoutCtx(t)
			stream, err := h.client.StreamingOutputCall(ctx, &testpb.StreamingOutputCallRequest{Payload: &testpb.Payload{Body: []byte(tt.body)}})
			if err != nil {
				t.Fatal(err)
			}
			<-h.svc.started
			recvErr := make(chan error, 1)
			go func() { _, err := stream.Recv(); recvErr <- err }()

			took, err := h.stop(t, 10*time.Second)
			if err != nil {
				t.Fatalf("Serve = %v, want nil", err)
			}
			if took < cfg.ShutdownGrace || took > tt.maxTook {
				t.Errorf("Serve returned after %v, want between %v and %v", took, cfg.ShutdownGrace, tt.maxTook)
			}
			if err := <-recvErr; status.Code(err) != codes.Unavailable && status.Code(err) != codes.Canceled {
				t.Errorf("client saw %v, want Unavailable or Canceled", err)
			}
			if h.logs.FilterMessage("shutdown grace expired; cancelling in-flight RPCs").Len() != 1 {
				t.Error("hard stop was not logged")
			}
		})
	}
}

func TestServeStopsOnSIGTERM(t *testing.T) {
	cfg := testConfig()
	srv := server.New(cfg, nil)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(context.Background(), lis) }()
	conn, err := server.Dial(lis.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// SERVING proves Serve has installed its signal handler, so the signal
	// below cannot kill the test binary.
	if got, err := servertest.Health(timeoutCtx(t), conn, ""); err != nil || got != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("Check = %v, %v", got, err)
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve ignored SIGTERM")
	}
}

func TestListenAndServeReportsBusyAddress(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	cfg := testConfig()
	cfg.Addr = busy.Addr().String()
	err = server.New(cfg, nil, server.WithoutSignals()).ListenAndServe(context.Background())
	if err == nil || !strings.Contains(err.Error(), cfg.Addr) {
		t.Fatalf("ListenAndServe = %v, want an error naming %s", err, cfg.Addr)
	}
}

func stringField(key, value string) zapcore.Field {
	return zapcore.Field{Key: key, Type: zapcore.StringType, String: value}
}
