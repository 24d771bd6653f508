package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/pkg/server/servertest"
)

// startGateway runs the gateway binary on loopback in front of the loop at
// loopAddr, with report pages and HTTP/JSON on a free port.
func startGateway(t *testing.T, loopAddr string, args ...string) *servertest.Process {
	t.Helper()
	return servertest.Start(t, bin, append([]string{"--loop-addr", loopAddr, "--http-addr", "127.0.0.1:0"}, args...)...)
}

// TestHealthOpenEverythingElseTokenChecked: probes (greenlight-healthcheck,
// load balancers) hold no token, so gRPC health and /healthz answer
// without one; RunService refuses, over gRPC and over HTTP/JSON alike.
func TestHealthOpenEverythingElseTokenChecked(t *testing.T) {
	loop := startLoop(t, t.TempDir(), deadAddr, deadAddr)
	gw := startGateway(t, loop.Addr, "--token", token)
	httpBase := "http://" + httpAddrOf(t, gw)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	conn, err := server.Dial(gw.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if st, err := servertest.Health(ctx, conn, ""); err != nil || st != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("gRPC health without a token = %v, %v; want SERVING", st, err)
	}
	if st, err := servertest.Health(ctx, conn, glv1.RunService_ServiceDesc.ServiceName); err != nil || st != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("gRPC health of RunService without a token = %v, %v; want SERVING", st, err)
	}
	runs := glv1.NewRunServiceClient(conn)
	if _, err := runs.ListRuns(ctx, &glv1.ListRunsRequest{}); status.Code(err) != codes.Unauthenticated {
		t.Errorf("gRPC ListRuns without a token = %v, want Unauthenticated", err)
	}
	if _, err := runs.ListRuns(bearer(ctx, token), &glv1.ListRunsRequest{}); err != nil {
		t.Errorf("gRPC ListRuns with the token = %v", err)
	}

	post := func(path, authz string) (int, string) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, httpBase+path, strings.NewReader(`{"runId":"no-such-run"}`))
		req.Header.Set("Content-Type", "application/json")
		if authz != "" {
			req.Header.Set("Authorization", authz)
		}
		return do(t, req)
	}
	get := func(path string) (int, string) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, httpBase+path, nil)
		return do(t, req)
	}
	tests := []struct {
		name string
		call func() (int, string)
		code int
		want string
	}{
		{"healthz without a token", func() (int, string) { return get("/healthz") }, http.StatusOK, "ok"},
		{"ListRuns without a token", func() (int, string) { return post("/greenlight.v1.RunService/ListRuns", "") }, http.StatusUnauthorized, `"code":"unauthenticated"`},
		{"GetRun with a wrong token", func() (int, string) {
			return post("/greenlight.v1.RunService/GetRun", "Bearer wrong-token-0123456789abcdef")
		}, http.StatusUnauthorized, `"code":"unauthenticated"`},
		{"GetRun with the token reaches the loop", func() (int, string) {
			return post("/greenlight.v1.RunService/GetRun", "Bearer "+token)
		}, http.StatusNotFound, `"code":"not_found"`},
		{"ListRuns with the token", func() (int, string) {
			return post("/greenlight.v1.RunService/ListRuns", "Bearer "+token)
		}, http.StatusOK, `{`},
	}
	for _, tt := range tests {
		if code, body := tt.call(); code != tt.code || !strings.Contains(body, tt.want) {
			t.Errorf("%s = %d %q; want %d with %q", tt.name, code, body, tt.code, tt.want)
		}
	}
}

// do sends req and returns the status and body.
func do(t *testing.T, req *http.Request) (int, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}
