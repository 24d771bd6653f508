package server_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/greenlight-dev/greenlight/pkg/server"
)

const testServiceToken = "0123456789abcdef-service-secret"

// callCodes makes one unary and one streaming call on conn and returns
// their codes.
func callCodes(t *testing.T, ctx context.Context, conn grpc.ClientConnInterface) (unary, stream codes.Code) {
	t.Helper()
	c := testgrpc.NewTestServiceClient(conn)
	_, err := c.UnaryCall(ctx, &testgrpc.SimpleRequest{})
	unary = status.Code(err)
	st, err := c.StreamingOutputCall(ctx, &testgrpc.StreamingOutputCallRequest{
		ResponseParameters: []*testgrpc.ResponseParameters{{Size: 1}}})
	if err != nil {
		return unary, status.Code(err)
	}
	for err == nil {
		_, err = st.Recv()
	}
	if errors.Is(err, io.EOF) {
		return unary, codes.OK
	}
	return unary, status.Code(err)
}

func dialT(t *testing.T, addr string, opts ...grpc.DialOption) *grpc.ClientConn {
	t.Helper()
	conn, err := server.Dial(addr, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// TestServiceTokenGuardsEveryRPCButHealth: a real server on loopback with
// the service token answers Unauthenticated to unary and streaming calls
// without it (or with a wrong, or a doubled, value), serves them with it,
// and keeps health open for probes.
func TestServiceTokenGuardsEveryRPCButHealth(t *testing.T) {
	tok, err := server.NewServiceToken(testServiceToken)
	if err != nil {
		t.Fatal(err)
	}
	h := startServer(t, testConfig(), nil, server.WithServiceToken(tok))
	ctx := timeoutCtx(t)
	addr := h.conn.Target()[len("passthrough:///"):]

	if u, s := callCodes(t, ctx, h.conn); u != codes.Unauthenticated || s != codes.Unauthenticated {
		t.Errorf("without token: unary %v, stream %v; want Unauthenticated", u, s)
	}
	wrong := dialT(t, addr, server.DialServiceToken("fedcba9876543210-wrong-secret"))
	if u, s := callCodes(t, ctx, wrong); u != codes.Unauthenticated || s != codes.Unauthenticated {
		t.Errorf("wrong token: unary %v, stream %v; want Unauthenticated", u, s)
	}
	good := dialT(t, addr, server.DialServiceToken(testServiceToken))
	if u, s := callCodes(t, ctx, good); u != codes.OK || s != codes.OK {
		t.Errorf("with token: unary %v, stream %v; want OK", u, s)
	}
	doubled := metadata.AppendToOutgoingContext(ctx, server.ServiceTokenKey, "fedcba9876543210-wrong-secret")
	if _, err := testgrpc.NewTestServiceClient(good).UnaryCall(doubled, &testgrpc.SimpleRequest{}); status.Code(err) != codes.Unauthenticated {
		t.Errorf("token plus a second value: %v, want Unauthenticated", err)
	}
	_, err = testgrpc.NewTestServiceClient(h.conn).UnaryCall(ctx, &testgrpc.SimpleRequest{})
	if msg := status.Convert(err).Message(); !strings.Contains(msg, "--service-token") {
		t.Errorf("refusal message %q does not say what to configure", msg)
	}
	if resp, err := healthpb.NewHealthClient(h.conn).Check(ctx, &healthpb.HealthCheckRequest{}); err != nil ||
		resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("health without token: %v %v, want SERVING", resp, err)
	}
}

func TestNewServiceTokenRejectsWeakTokens(t *testing.T) {
	if tok, err := server.NewServiceToken(""); tok != nil || err != nil {
		t.Errorf(`NewServiceToken("") = %v, %v; want nil, nil`, tok, err)
	}
	if _, err := server.NewServiceToken("short"); !errors.Is(err, server.ErrServiceTokenTooShort) {
		t.Errorf("short token: %v", err)
	}
	if _, err := server.NewServiceToken("0123456789abcdef 0123"); !errors.Is(err, server.ErrServiceTokenInvalid) {
		t.Errorf("token with a space: %v", err)
	}
}

func TestConfigRequiresServiceTokenOffLoopback(t *testing.T) {
	tests := []struct {
		addr, token string
		public      bool
		want        string // "" = valid
	}{
		{"127.0.0.1:7072", "", false, ""},
		{"[::1]:7072", "", false, ""},
		{"localhost:7072", "", false, ""},
		{"0.0.0.0:7072", "", false, "--addr 0.0.0.0:7072 is not a loopback address"},
		{":7072", "", false, "GREENLIGHT_EXECUTOR_SERVICE_TOKEN"},
		{"10.0.0.5:7072", "", false, "--service-token-file"},
		{"0.0.0.0:7072", testServiceToken, false, ""},
		{"0.0.0.0:7072", "", true, ""}, // the gateway: its own --token rule applies
		{"127.0.0.1:7072", "tooshort", false, "service-token"},
	}
	for _, tt := range tests {
		cfg := server.DefaultConfig("executor", tt.addr)
		cfg.ServiceToken, cfg.Public = tt.token, tt.public
		err := cfg.Validate()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%+v: Validate = %v, want nil", tt, err)
		case tt.want != "" && (!errors.Is(err, server.ErrConfig) || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%+v: Validate = %v, want ErrConfig mentioning %q", tt, err, tt.want)
		}
	}
}

// TestRunServiceToken: a service binary's Run refuses to listen off
// loopback without the token (exit 2, one line naming the flags), reads
// the token from --service-token-file, requires it on its listener and
// hands it to Register for the service's own clients; a Public spec (the
// gateway) does not check it on its listener.
func TestRunServiceToken(t *testing.T) {
	var stderr lockedBuffer
	refuseCtx, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	spec := server.Spec{Name: "demo", Register: func(context.Context, *server.Server, *zap.Logger) (func() error, error) {
		t.Error("Register ran despite the missing token")
		stop()
		return nil, nil
	}}
	if code := server.Run(refuseCtx, spec, []string{"--addr", "0.0.0.0:0"}, &stderr); code != server.ExitUsage ||
		strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), "--service-token") {
		t.Fatalf("off loopback without token: exit %d, stderr %q; want 2 and one line naming --service-token", code, stderr.String())
	}

	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte(testServiceToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, public := range []bool{false, true} {
		addrc, seen := make(chan string, 1), make(chan string, 1)
		ctx, cancel := context.WithCancel(context.Background())
		spec := server.Spec{Name: "demo", Public: public, DefaultAddr: "127.0.0.1:0",
			Register: func(_ context.Context, s *server.Server, _ *zap.Logger) (func() error, error) {
				testgrpc.RegisterTestServiceServer(s.GRPC(), newTestService())
				seen <- s.Config().ServiceToken
				return nil, nil
			}}
		done := make(chan int, 1)
		var logs lockedBuffer
		go func() {
			done <- server.Run(ctx, spec, []string{"--addr", "0.0.0.0:0", "--service-token-file", file,
				"--log-format=json", "--drain-delay=0"}, &logs)
		}()
		go waitServing(&logs, addrc)
		var addr string
		select {
		case addr = <-addrc:
		case code := <-done:
			t.Fatalf("public=%v: Run exited %d:\n%s", public, code, logs.String())
		case <-time.After(10 * time.Second):
			t.Fatalf("public=%v: not serving:\n%s", public, logs.String())
		}
		if got := <-seen; got != testServiceToken {
			t.Errorf("Register saw token %q", got)
		}
		port := addr[strings.LastIndex(addr, ":"):]
		u, s := callCodes(t, timeoutCtx(t), dialT(t, "127.0.0.1"+port))
		want := codes.Unauthenticated
		if public {
			want = codes.OK
		}
		if u != want || s != want {
			t.Errorf("public=%v without token: unary %v, stream %v; want %v", public, u, s, want)
		}
		if u, s := callCodes(t, timeoutCtx(t), dialT(t, "127.0.0.1"+port, server.DialServiceToken(testServiceToken))); u != codes.OK || s != codes.OK {
			t.Errorf("public=%v with token: unary %v, stream %v", public, u, s)
		}
		cancel()
		<-done
	}
}

// waitServing sends the address of the "serving" log line.
func waitServing(logs *lockedBuffer, addrc chan<- string) {
	for range 200 {
		out := logs.String()
		if i := strings.Index(out, `"msg":"serving"`); i >= 0 && strings.Contains(out[i:], `"addr":"`) {
			rest := out[i:]
			rest = rest[strings.Index(rest, `"addr":"`)+len(`"addr":"`):]
			addrc <- rest[:strings.Index(rest, `"`)]
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}
