package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/pkg/server/servertest"
)

const token = "gw-test-token-5f4dcc3b5aa765d61d8327deb882cf99"

// publicGateway is a gateway bound to every interface (so a token is
// required) in front of a real loop, reached via 127.0.0.1.
type publicGateway struct {
	conn     *grpc.ClientConn
	httpBase string
}

func startPublicGateway(t *testing.T, tokenArgs ...string) *publicGateway {
	t.Helper()
	loop := startLoop(t, t.TempDir(), deadAddr, deadAddr)
	p := servertest.Start(t, bin, append([]string{"--addr", "0.0.0.0:0", "--http-addr", "0.0.0.0:0", "--loop-addr", loop.Addr}, tokenArgs...)...)
	conn, err := server.Dial(loopbackAddr(t, p.Addr))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return &publicGateway{conn: conn, httpBase: "http://" + loopbackAddr(t, httpAddrOf(t, p))}
}

func bearer(ctx context.Context, tok string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+tok)
}

func TestPublicGatewayRequiresTheToken(t *testing.T) {
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, args := range map[string][]string{
		"flag": {"--token", token},
		"file": {"--token-file", tokenFile},
	} {
		t.Run(name, func(t *testing.T) {
			g := startPublicGateway(t, args...)
			checkGRPCAuth(t, g)
			checkHTTPAuth(t, g)
		})
	}
}

func checkGRPCAuth(t *testing.T, g *publicGateway) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	runs := glv1.NewRunServiceClient(g.conn)
	refused := []struct {
		name string
		ctx  context.Context
	}{
		{"no token", ctx},
		{"wrong token", bearer(ctx, "wrong-token-0123456789abcdef")},
		{"token as basic", metadata.AppendToOutgoingContext(ctx, "authorization", "Basic "+token)},
	}
	for _, r := range refused {
		_, err := runs.ListRuns(r.ctx, &glv1.ListRunsRequest{})
		if st := status.Convert(err); st.Code() != codes.Unauthenticated || st.Message() != "unauthenticated" || len(st.Details()) > 0 {
			t.Errorf("%s: ListRuns = %v, want a bare Unauthenticated", r.name, err)
		}
		stream, err := runs.WatchRun(r.ctx, &glv1.WatchRunRequest{RunId: "x"})
		if err == nil {
			_, err = stream.Recv()
		}
		if status.Code(err) != codes.Unauthenticated {
			t.Errorf("%s: WatchRun = %v, want Unauthenticated", r.name, err)
		}
		if err := reflectionCall(r.ctx, g.conn); status.Code(err) != codes.Unauthenticated {
			t.Errorf("%s: reflection = %v, want Unauthenticated", r.name, err)
		}
	}
	if got, err := servertest.Health(ctx, g.conn, ""); err != nil || got != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("health without a token = %v, %v; want SERVING", got, err)
	}

	// The right token reaches the real loop: its answers come back.
	authed := bearer(ctx, token)
	if _, err := runs.ListRuns(authed, &glv1.ListRunsRequest{}); err != nil {
		t.Errorf("ListRuns with the token = %v", err)
	}
	if _, err := runs.GetRun(authed, &glv1.GetRunRequest{RunId: "no-such-run"}); status.Code(err) != codes.NotFound {
		t.Errorf("GetRun of an unknown run = %v, want the loop's NotFound", err)
	}
	data := bytes.Repeat([]byte("greenlight "), 100_000)
	d, err := blob.NewClient(g.conn).Put(authed, bytes.NewReader(data))
	if err != nil || d != blob.DigestOf(data) {
		t.Errorf("upload with the token = %v, %v", d, err)
	}
	if _, err := blob.NewClient(g.conn).Put(ctx, bytes.NewReader(data)); status.Code(errorsCause(err)) != codes.Unauthenticated {
		t.Errorf("upload without the token = %v, want Unauthenticated", err)
	}
	if services, err := servertest.ListServices(authed, g.conn); err != nil || len(services) < 4 {
		t.Errorf("reflection with the token = %v, %v", services, err)
	}
}

// reflectionCall makes one reflection request (what `grpcurl list` does)
// and returns the stream's status.
func reflectionCall(ctx context.Context, conn *grpc.ClientConn) error {
	stream, err := reflectionpb.NewServerReflectionClient(conn).ServerReflectionInfo(ctx)
	if err != nil {
		return err
	}
	_ = stream.Send(&reflectionpb.ServerReflectionRequest{
		MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{ListServices: "*"},
	})
	_, err = stream.Recv()
	return err
}

// errorsCause digs a status out of a wrapped error.
func errorsCause(err error) error {
	for e := err; e != nil; {
		if _, ok := status.FromError(e); ok {
			return e
		}
		u, ok := e.(interface{ Unwrap() error })
		if !ok {
			break
		}
		e = u.Unwrap()
	}
	return err
}

func checkHTTPAuth(t *testing.T, g *publicGateway) {
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path, authz string, cookies ...*http.Cookie) (*http.Response, string) {
		req, _ := http.NewRequest(http.MethodGet, g.httpBase+path, nil)
		if authz != "" {
			req.Header.Set("Authorization", authz)
		}
		for _, c := range cookies {
			req.AddCookie(c)
		}
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(body)
	}
	for _, path := range []string{"/", "/runs/some-run", "/runs/some-run/events", "/runs/some-run/logs/go-test", "/runs/some-run/result.json", "/static/report.js"} {
		for _, authz := range []string{"", "Bearer wrong-token-0123456789abcdef"} {
			resp, body := get(path, authz)
			if resp.StatusCode != http.StatusUnauthorized || body != "unauthorized\n" {
				t.Errorf("GET %s (%q) = %d %q, want a bare 401", path, authz, resp.StatusCode, body)
			}
		}
	}
	if resp, _ := get("/healthz", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("healthz = %d, want 200 without a token", resp.StatusCode)
	}
	resp, body := get("/", "Bearer "+token)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "Recent runs") {
		t.Errorf("GET / with the token = %d", resp.StatusCode)
	}
	if resp, body := get("/runs/no-such-run", "Bearer "+token); resp.StatusCode != http.StatusNotFound || !strings.Contains(body, "Run not found") {
		t.Errorf("unknown run with the token = %d", resp.StatusCode)
	}

	// A browser link with ?token= trades it for a cookie and drops it from the URL.
	resp, _ = get("/?token="+token, "")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Fatalf("?token= = %d → %q, want 303 → /", resp.StatusCode, resp.Header.Get("Location"))
	}
	cookies := resp.Cookies()
	if len(cookies) != 1 || !cookies[0].HttpOnly || strings.Contains(cookies[0].Value, token) {
		t.Fatalf("cookies = %+v, want one HttpOnly cookie not holding the token", cookies)
	}
	if resp, _ := get("/", "", cookies[0]); resp.StatusCode != http.StatusOK {
		t.Errorf("GET / with the cookie = %d", resp.StatusCode)
	}
	ctx := bearer(context.Background(), cookies[0].Value)
	if _, err := glv1.NewRunServiceClient(g.conn).ListRuns(ctx, &glv1.ListRunsRequest{}); status.Code(err) != codes.Unauthenticated {
		t.Errorf("the cookie value worked as a gRPC token: %v", err)
	}
}
