package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/greenlight-dev/greenlight/pkg/server"
)

// rawBytes is sent as is by rawCodec: a request body that is not a valid
// protobuf message of any kind.
type rawBytes []byte

type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) { return *v.(*rawBytes), nil }
func (rawCodec) Unmarshal(data []byte, v any) error {
	*v.(*rawBytes) = append(rawBytes(nil), data...)
	return nil
}
func (rawCodec) Name() string { return "proto" }

// garbage is bytes no protobuf decoder accepts (a truncated varint).
var garbage = rawBytes{0x0a, 0xff, 0xff, 0xff}

// TestMalformedBodyWithoutTheTokenIsUnauthenticated (ADVERSARIAL row 50):
// a request body that does not decode, sent with no token or a wrong one,
// is answered Unauthenticated — never InvalidArgument naming the message
// type, which would show the gateway decoded it for a stranger — over gRPC
// (unary, server-, client- and bidi-streaming) and HTTP/JSON (Connect
// unary and streaming, gRPC-Web). With the token the same bytes are
// InvalidArgument. Health stays open.
func TestMalformedBodyWithoutTheTokenIsUnauthenticated(t *testing.T) {
	loop := startLoop(t, t.TempDir(), deadAddr, deadAddr)
	gw := startGateway(t, loop.Addr, "--token", tokenA, "--operator-token", operatorToken)
	httpBase := "http://" + httpAddrOf(t, gw)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := server.Dial(gw.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	unary := func(ctx context.Context, method string) error {
		var out rawBytes
		return conn.Invoke(ctx, method, &garbage, &out, grpc.ForceCodec(rawCodec{}))
	}
	stream := func(ctx context.Context, method string, clientStreams bool) error {
		s, err := conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true, ClientStreams: clientStreams}, method, grpc.ForceCodec(rawCodec{}))
		if err != nil {
			return err
		}
		if err := s.SendMsg(&garbage); err != nil && err != io.EOF {
			return err
		}
		if err := s.CloseSend(); err != nil {
			return err
		}
		var out rawBytes
		for {
			if err := s.RecvMsg(&out); err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
		}
	}
	calls := []struct {
		name string
		call func(context.Context) error
	}{
		{"GetRun (unary)", func(ctx context.Context) error { return unary(ctx, "/greenlight.v1.RunService/GetRun") }},
		{"ListRuns (unary)", func(ctx context.Context) error { return unary(ctx, "/greenlight.v1.RunService/ListRuns") }},
		{"WatchRun (server stream)", func(ctx context.Context) error {
			return stream(ctx, "/greenlight.v1.RunService/WatchRun", false)
		}},
		{"Verify (server stream)", func(ctx context.Context) error { return stream(ctx, "/greenlight.v1.RunService/Verify", false) }},
		{"BlobService.Write (client stream)", func(ctx context.Context) error {
			return stream(ctx, "/greenlight.v1.BlobService/Write", true)
		}},
		{"Fix (bidi stream)", func(ctx context.Context) error { return stream(ctx, "/greenlight.v1.RunService/Fix", true) }},
	}
	for _, c := range calls {
		t.Run("grpc "+c.name, func(t *testing.T) {
			for name, ctx := range map[string]context.Context{
				"no token":    ctx,
				"wrong token": bearer(ctx, "wrong-token-0123456789abcdef"),
			} {
				err := c.call(ctx)
				if status.Code(err) != codes.Unauthenticated || status.Convert(err).Message() != "unauthenticated" {
					t.Errorf("%s: %v, want the bare Unauthenticated", name, err)
				}
			}
			if err := c.call(bearer(ctx, tokenA)); status.Code(err) != codes.InvalidArgument {
				t.Errorf("with the token: %v, want InvalidArgument", err)
			}
		})
	}

	post := func(path, contentType, authz, body string) (*http.Response, string) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, httpBase+path, strings.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		if authz != "" {
			req.Header.Set("Authorization", authz)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	frame := func(msg string) string {
		var hdr [5]byte
		binary.BigEndian.PutUint32(hdr[1:], uint32(len(msg)))
		return string(hdr[:]) + msg
	}
	type answer struct {
		code int
		// what the body or headers say: the Connect or gRPC code
		says string
	}
	connectCode := func(resp *http.Response, body string) string {
		var e struct {
			Code  string `json:"code"`
			Error struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		if i := strings.IndexByte(body, '{'); i >= 0 {
			_ = json.Unmarshal([]byte(body[i:]), &e)
		}
		if e.Code != "" {
			return e.Code
		}
		if e.Error.Code != "" {
			return e.Error.Code
		}
		return "grpc-status " + resp.Header.Get("Grpc-Status")
	}
	httpCalls := []struct {
		name, path, contentType, body string
		refused, authed               answer
	}{
		{"connect unary, malformed JSON", "/greenlight.v1.RunService/GetRun", "application/json", `{"runId":`,
			answer{401, "unauthenticated"}, answer{400, "invalid_argument"}},
		{"connect unary, wrong field type", "/greenlight.v1.RunService/ListRuns", "application/json", `{"pageSize":"lots"}`,
			answer{401, "unauthenticated"}, answer{400, "invalid_argument"}},
		{"connect stream, malformed JSON", "/greenlight.v1.RunService/WatchRun", "application/connect+json", frame(`{"runId":`),
			answer{200, "unauthenticated"}, answer{200, "invalid_argument"}},
		{"grpc-web, garbage proto", "/greenlight.v1.RunService/GetRun", "application/grpc-web+proto", frame(string(garbage)),
			answer{200, "grpc-status 16"}, answer{200, "grpc-status 3"}},
	}
	for _, c := range httpCalls {
		t.Run("http "+c.name, func(t *testing.T) {
			for _, authz := range []string{"", "Bearer wrong-token-0123456789abcdef", "Basic " + tokenA} {
				resp, body := post(c.path, c.contentType, authz, c.body)
				if resp.StatusCode != c.refused.code || connectCode(resp, body) != c.refused.says || strings.Contains(body, "greenlight.v1.") {
					t.Errorf("authorization %q: %d %q (%s), want %d %s", authz, resp.StatusCode, body, connectCode(resp, body), c.refused.code, c.refused.says)
				}
			}
			resp, body := post(c.path, c.contentType, "Bearer "+tokenA, c.body)
			if resp.StatusCode != c.authed.code || connectCode(resp, body) != c.authed.says {
				t.Errorf("with the token: %d %q, want %d %s", resp.StatusCode, body, c.authed.code, c.authed.says)
			}
		})
	}

	if resp, err := http.Get(httpBase + "/healthz"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("/healthz without a token = %v, %v", resp, err)
	} else {
		_ = resp.Body.Close()
	}
}
