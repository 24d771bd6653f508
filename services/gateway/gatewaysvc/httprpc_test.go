package gatewaysvc

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/auth"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/loopfake"
)

// tokenGateway is a gateway requiring testToken.
func tokenGateway(t *testing.T) *gateway {
	t.Helper()
	return startGateway(t, func(c *Config, _ *server.Config) { c.Token = testToken })
}

// httpCall is one HTTP request to the gateway's HTTP listener.
type httpCall struct {
	path, contentType, authz string
	body                     []byte
	header                   http.Header
}

// do sends c and returns the response with its body read.
func (g *gateway) do(t *testing.T, c httpCall) (*http.Response, []byte) {
	t.Helper()
	method := http.MethodPost
	if c.body == nil {
		method = http.MethodGet
	}
	req, err := http.NewRequestWithContext(testContext(t), method, g.httpURL+c.path, bytes.NewReader(c.body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range c.header {
		req.Header[k] = v
	}
	if c.contentType != "" {
		req.Header.Set("Content-Type", c.contentType)
	}
	if c.authz != "" {
		req.Header.Set("Authorization", c.authz)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// postJSON makes a Connect unary call with a JSON body.
func (g *gateway) postJSON(t *testing.T, method, body, authz string) (*http.Response, []byte) {
	t.Helper()
	return g.do(t, httpCall{path: "/greenlight.v1." + method, contentType: "application/json", authz: authz, body: []byte(body)})
}

// connectError is the JSON body of a failed Connect unary call.
type connectError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func TestHTTPJSONUnaryCalls(t *testing.T) {
	g := tokenGateway(t)
	want := loopfake.FailingVerifyRun("run-1", nil)
	g.loop.Put(want)
	authz := "Bearer " + testToken

	resp, body := g.postJSON(t, "RunService/GetRun", `{"runId":"run-1"}`, authz)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("GetRun = %d %s: %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	var got glv1.GetRunResponse
	if err := protojson.Unmarshal(body, &got); err != nil || !proto.Equal(got.GetRun(), want) {
		t.Fatalf("GetRun body does not decode to the stored run (%v):\n%s", err, body)
	}
	// protojson's lowerCamelCase names, as in the proto's JSON mapping.
	for _, field := range []string{`"exitCode"`, `"createdAt"`, `"logDigest"`} {
		if !bytes.Contains(body, []byte(field)) {
			t.Errorf("GetRun JSON lacks %s:\n%.400s", field, body)
		}
	}
	// proto field names are accepted too (protojson reads both).
	if resp, body := g.postJSON(t, "RunService/GetRun", `{"run_id":"run-1"}`, authz); resp.StatusCode != http.StatusOK {
		t.Errorf("GetRun with run_id = %d: %s", resp.StatusCode, body)
	}

	resp, body = g.postJSON(t, "RunService/ListRuns", `{}`, authz)
	var list glv1.ListRunsResponse
	if err := protojson.Unmarshal(body, &list); resp.StatusCode != http.StatusOK || err != nil || len(list.GetRuns()) != 1 || list.GetRuns()[0].GetId() != "run-1" {
		t.Fatalf("ListRuns = %d, %v: %s", resp.StatusCode, err, body)
	}

	// The loop's status comes back as a Connect error with its message.
	resp, body = g.postJSON(t, "RunService/GetRun", `{"runId":"nope"}`, authz)
	var ce connectError
	_ = json.Unmarshal(body, &ce)
	if resp.StatusCode != http.StatusNotFound || ce.Code != "not_found" || ce.Message != `run "nope" not found: list runs with ListRuns` {
		t.Fatalf("unknown run = %d %s", resp.StatusCode, body)
	}
	// A body that is not the request message is the client's fault.
	for _, bad := range []string{`{"runId":`, `{"runId":7}`} {
		resp, body := g.postJSON(t, "RunService/GetRun", bad, authz)
		var ce connectError
		_ = json.Unmarshal(body, &ce)
		if resp.StatusCode != http.StatusBadRequest || ce.Code != "invalid_argument" || !strings.Contains(ce.Message, "not a valid greenlight.v1.GetRunRequest") {
			t.Errorf("GetRun %s = %d %s, want 400 invalid_argument naming the message", bad, resp.StatusCode, body)
		}
	}
}

// TestHTTPBeforeRegisterIsUnavailable: a gateway whose services were not
// registered on a *grpc.Server has nothing to hand HTTP calls to.
func TestHTTPBeforeRegisterIsUnavailable(t *testing.T) {
	h, err := newRPCHandler(&grpcTarget{})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "/greenlight.v1.RunService/ListRuns", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	connectUnaryByDefault(h).ServeHTTP(rec, req)
	var ce connectError
	if err := json.Unmarshal(rec.Body.Bytes(), &ce); err != nil || rec.Code != http.StatusServiceUnavailable || ce.Code != "unavailable" {
		t.Fatalf("ListRuns before Register = %d %s, want 503 unavailable", rec.Code, rec.Body)
	}
}

func TestHTTPAuthAndHealth(t *testing.T) {
	g := tokenGateway(t)
	g.loop.Put(loopfake.FailingVerifyRun("run-1", nil))
	tok, err := auth.New(testToken)
	if err != nil {
		t.Fatal(err)
	}
	cookie := http.Header{"Cookie": {auth.CookieName + "=" + tok.CookieValue()}}
	listRuns := httpCall{path: "/greenlight.v1.RunService/ListRuns", contentType: "application/json", body: []byte("{}")}
	with := func(c httpCall, authz string, h http.Header) httpCall { c.authz, c.header = authz, h; return c }
	tests := []struct {
		name string
		call httpCall
		want int
		body string // a substring of the answer
	}{
		{"rpc without a token", listRuns, http.StatusUnauthorized, `"code":"unauthenticated"`},
		{"rpc with a wrong token", with(listRuns, "Bearer wrong-token-0123456789abcdef", nil), http.StatusUnauthorized, `"code":"unauthenticated"`},
		// The pages' session cookie is for browsers reading pages, not the API.
		{"rpc with the session cookie", with(listRuns, "", cookie), http.StatusUnauthorized, `"code":"unauthenticated"`},
		{"rpc with the token", with(listRuns, "Bearer "+testToken, nil), http.StatusOK, `"id":"run-1"`},
		{"blob stat without a token", httpCall{path: "/greenlight.v1.BlobService/Stat", contentType: "application/json", body: []byte("{}")}, http.StatusUnauthorized, "unauthenticated"},
		{"healthz without a token", httpCall{path: "/healthz"}, http.StatusOK, "ok"},
		{"page without a token", httpCall{path: "/"}, http.StatusUnauthorized, "unauthorized"},
		{"page with the token", httpCall{path: "/", authz: "Bearer " + testToken}, http.StatusOK, "run-1"},
		{"page with the cookie", httpCall{path: "/runs/run-1", header: cookie}, http.StatusOK, "run-1"},
		// Only the public services are transcoded: health and reflection
		// stay gRPC, so a POST there meets the read-only pages.
		{"grpc health over http", with(httpCall{path: "/grpc.health.v1.Health/Check", contentType: "application/json", body: []byte("{}")}, "Bearer "+testToken, nil), http.StatusMethodNotAllowed, "read-only"},
		{"reflection over http", with(httpCall{path: "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo", contentType: "application/json", body: []byte("{}")}, "Bearer "+testToken, nil), http.StatusMethodNotAllowed, "read-only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := g.do(t, tt.call)
			if resp.StatusCode != tt.want || !strings.Contains(string(body), tt.body) {
				t.Fatalf("%s = %d %q; want %d with %q", tt.call.path, resp.StatusCode, body, tt.want, tt.body)
			}
		})
	}
}

// frame is one message of a Connect or gRPC-Web stream.
type frame struct {
	flags byte
	data  []byte
}

// envelope frames msg as a Connect / gRPC-Web stream message.
func envelope(flags byte, msg []byte) []byte {
	out := make([]byte, 5, 5+len(msg))
	out[0] = flags
	binary.BigEndian.PutUint32(out[1:], uint32(len(msg)))
	return append(out, msg...)
}

// frames splits a stream body into its messages.
func frames(body []byte) ([]frame, error) {
	var out []frame
	for len(body) > 0 {
		if len(body) < 5 {
			return out, errors.New("truncated frame header")
		}
		n := int(binary.BigEndian.Uint32(body[1:5]))
		if len(body) < 5+n {
			return out, fmt.Errorf("frame of %d bytes truncated", n)
		}
		out = append(out, frame{flags: body[0], data: body[5 : 5+n]})
		body = body[5+n:]
	}
	return out, nil
}

// watchEvents decodes WatchRunResponse messages.
func watchEvents(t *testing.T, msgs []frame, decode func([]byte, proto.Message) error) []*glv1.RunEvent {
	t.Helper()
	var evs []*glv1.RunEvent
	for _, f := range msgs {
		var resp glv1.WatchRunResponse
		if err := decode(f.data, &resp); err != nil {
			t.Fatalf("message %q: %v", f.data, err)
		}
		evs = append(evs, resp.GetEvent())
	}
	return evs
}

func TestHTTPServerStreamingWatchRun(t *testing.T) {
	g := tokenGateway(t)
	g.loop.Emit("run-1", loopfake.PassingEvents("run-1")...)
	want := len(loopfake.PassingEvents("run-1"))

	t.Run("connect json", func(t *testing.T) {
		resp, body := g.do(t, httpCall{path: "/greenlight.v1.RunService/WatchRun", contentType: "application/connect+json",
			authz: "Bearer " + testToken, body: envelope(0, []byte(`{"runId":"run-1"}`))})
		fs, err := frames(body)
		if resp.StatusCode != http.StatusOK || err != nil || len(fs) != want+1 {
			t.Fatalf("WatchRun = %d, %d frames, %v:\n%q", resp.StatusCode, len(fs), err, body)
		}
		// The last frame ends the stream (flag 2) without an error.
		if end := fs[len(fs)-1]; end.flags != 2 || strings.Contains(string(end.data), "error") {
			t.Fatalf("end of stream = %d %s", end.flags, end.data)
		}
		evs := watchEvents(t, fs[:want], protojson.Unmarshal)
		if evs[0].GetSeq() != 1 || evs[want-1].GetRunFinished().GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED {
			t.Fatalf("events = %v", evs)
		}
	})
	t.Run("grpc-web proto", func(t *testing.T) {
		req, _ := proto.Marshal(&glv1.WatchRunRequest{RunId: "run-1", AfterSeq: 2})
		resp, body := g.do(t, httpCall{path: "/greenlight.v1.RunService/WatchRun", contentType: "application/grpc-web+proto",
			authz: "Bearer " + testToken, body: envelope(0, req)})
		fs, err := frames(body)
		if resp.StatusCode != http.StatusOK || err != nil || len(fs) != want-2+1 {
			t.Fatalf("WatchRun = %d, %d frames, %v", resp.StatusCode, len(fs), err)
		}
		if tr := fs[len(fs)-1]; tr.flags != 0x80 || !strings.Contains(strings.ToLower(string(tr.data)), "grpc-status: 0") {
			t.Fatalf("trailers = %d %q", tr.flags, tr.data)
		}
		if evs := watchEvents(t, fs[:want-2], proto.Unmarshal); evs[0].GetSeq() != 3 {
			t.Fatalf("first event after seq 2 = %v", evs[0])
		}
	})
	t.Run("connect without a token", func(t *testing.T) {
		_, body := g.do(t, httpCall{path: "/greenlight.v1.RunService/WatchRun", contentType: "application/connect+json",
			body: envelope(0, []byte(`{"runId":"run-1"}`))})
		fs, err := frames(body)
		if err != nil || len(fs) != 1 || fs[0].flags != 2 || !strings.Contains(string(fs[0].data), `"code":"unauthenticated"`) {
			t.Fatalf("WatchRun without a token = %q, %v; want only an unauthenticated end of stream", body, err)
		}
	})
}

func TestHTTPUploadAndGzip(t *testing.T) {
	g := tokenGateway(t)
	data := bytes.Repeat([]byte("greenlight snapshot bytes "), 40_000) // ~1 MiB, compressible
	d := blob.DigestOf(data)

	// BlobService.Write, a client stream: two JSON messages in one body.
	first, _ := protojson.Marshal(&glv1.WriteRequest{Digest: d.Proto(), Data: data[:len(data)/2]})
	last, _ := protojson.Marshal(&glv1.WriteRequest{Data: data[len(data)/2:], FinishWrite: true})
	resp, body := g.do(t, httpCall{path: "/greenlight.v1.BlobService/Write", contentType: "application/connect+json",
		authz: "Bearer " + testToken, body: append(envelope(0, first), envelope(0, last)...)})
	if fs, err := frames(body); resp.StatusCode != http.StatusOK || err != nil || len(fs) != 2 || fs[1].flags != 2 || strings.TrimSpace(string(fs[1].data)) != "{}" {
		t.Fatalf("Write = %d %q, %v", resp.StatusCode, body, err)
	}
	if size, found, err := g.loop.Blobs.Stat(testContext(t), d); err != nil || !found || size != int64(len(data)) {
		t.Fatalf("the upload did not arrive: %d %v %v", size, found, err)
	}

	// Unary: a gzip-compressed request gets a gzip-compressed answer (the
	// gRPC server answers in the request's compression; Accept-Encoding
	// alone does not reach it through grpc-go's ServeHTTP).
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	statReq := fmt.Sprintf(`{"digest":{"hash":%q,"sizeBytes":"%d"}}`, d.Hash, d.Size)
	_, _ = io.WriteString(zw, statReq)
	_ = zw.Close()
	for _, tt := range []struct {
		name, contentEncoding, accept string
		body                          []byte
		zipped                        bool
	}{
		{"compressed request", "gzip", "gzip", zipped.Bytes(), true},
		{"plain request", "", "identity", []byte(statReq), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{"Accept-Encoding": {tt.accept}}
			if tt.contentEncoding != "" {
				h.Set("Content-Encoding", tt.contentEncoding)
			}
			resp, body := g.do(t, httpCall{path: "/greenlight.v1.BlobService/Stat", contentType: "application/json", authz: "Bearer " + testToken, body: tt.body, header: h})
			if got := resp.Header.Get("Content-Encoding") == "gzip"; resp.StatusCode != http.StatusOK || got != tt.zipped {
				t.Fatalf("Stat = %d, Content-Encoding %q: %q", resp.StatusCode, resp.Header.Get("Content-Encoding"), body)
			}
			if tt.zipped {
				zr, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				if body, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
			}
			var stat glv1.StatResponse
			if err := protojson.Unmarshal(body, &stat); err != nil || !stat.GetFound() || stat.GetSizeBytes() != int64(len(data)) {
				t.Fatalf("Stat body = %q, %v", body, err)
			}
		})
	}

	// Streaming: a compressed request message (flag 1) gets compressed
	// answers.
	var zippedRead bytes.Buffer
	zw = gzip.NewWriter(&zippedRead)
	_, _ = io.WriteString(zw, statReq) // ReadRequest has the same digest field
	_ = zw.Close()
	resp, body = g.do(t, httpCall{path: "/greenlight.v1.BlobService/Read", contentType: "application/connect+json", authz: "Bearer " + testToken,
		body: envelope(1, zippedRead.Bytes()), header: http.Header{"Connect-Content-Encoding": {"gzip"}, "Connect-Accept-Encoding": {"gzip"}}})
	fs, err := frames(body)
	if resp.StatusCode != http.StatusOK || err != nil || len(fs) < 2 || resp.Header.Get("Connect-Content-Encoding") != "gzip" {
		t.Fatalf("Read = %d, %d frames, %v, Connect-Content-Encoding %q", resp.StatusCode, len(fs), err, resp.Header.Get("Connect-Content-Encoding"))
	}
	var wire int
	for _, f := range fs[:len(fs)-1] {
		if f.flags != 1 {
			t.Fatalf("message flags = %d, want 1 (compressed)", f.flags)
		}
		wire += len(f.data)
	}
	if wire*10 > len(data) {
		t.Fatalf("%d bytes of blob took %d on the wire, want at least 10x less", len(data), wire)
	}
}
