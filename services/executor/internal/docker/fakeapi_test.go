package docker

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"go.uber.org/zap"
)

// apiEngine is a scripted Docker Engine API on a TCP port: it answers the
// ping itself (API 1.41, the oldest engine supported) and every other call
// with the handler registered for its route ("POST /containers/{id}/start",
// http.ServeMux patterns, the version prefix stripped), 404 when there is
// none. Every request is recorded with its body.
type apiEngine struct {
	srv *httptest.Server
	mux *http.ServeMux

	mu       sync.Mutex
	handlers map[string]http.HandlerFunc
	reqs     []apiRequest
}

// apiRequest is one request as the engine received it.
type apiRequest struct {
	Method, Path string
	Query        url.Values
	Body         []byte
}

// versionPrefix is the API version the client puts before every path.
var versionPrefix = regexp.MustCompile(`^/v[0-9.]+/`)

// newAPIEngine serves a new apiEngine and returns a Runtime talking to it.
func newAPIEngine(t *testing.T) (*apiEngine, *Runtime) {
	t.Helper()
	e := &apiEngine{mux: http.NewServeMux(), handlers: map[string]http.HandlerFunc{}}
	e.srv = httptest.NewServer(http.HandlerFunc(e.serve))
	t.Cleanup(e.srv.Close)
	rt, err := New("tcp://"+e.srv.Listener.Addr().String(), zap.NewNop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rt.Close() })
	return e, rt
}

func (e *apiEngine) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Api-Version", "1.41")
	if r.URL.Path == "/_ping" {
		_, _ = io.WriteString(w, "OK")
		return
	}
	body, _ := io.ReadAll(r.Body) // before any hijack: what follows is the stream
	r.URL.Path = versionPrefix.ReplaceAllString(r.URL.Path, "/")
	e.mu.Lock()
	e.reqs = append(e.reqs, apiRequest{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Body: body})
	e.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(body))
	h, pattern := e.mux.Handler(r)
	if pattern == "" {
		apiError(w, http.StatusNotFound, "fake engine: no route for "+r.Method+" "+r.URL.Path)
		return
	}
	h.ServeHTTP(w, r)
}

// handle registers h for pattern, replacing the pattern's handler if it
// has one.
func (e *apiEngine) handle(pattern string, h http.HandlerFunc) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := e.handlers[pattern]; !ok {
		e.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			e.mu.Lock()
			h := e.handlers[pattern]
			e.mu.Unlock()
			h(w, r)
		})
	}
	e.handlers[pattern] = h
}

// reply registers a handler answering pattern with status and v as JSON.
func (e *apiEngine) reply(pattern string, status int, v any) {
	e.handle(pattern, func(w http.ResponseWriter, _ *http.Request) { apiJSON(w, status, v) })
}

// fail registers a handler answering pattern with the engine's error
// body.
func (e *apiEngine) fail(pattern string, status int, msg string) {
	e.handle(pattern, func(w http.ResponseWriter, _ *http.Request) { apiError(w, status, msg) })
}

// requests returns the recorded requests of method to path (path "" for
// every path).
func (e *apiEngine) requests(method, path string) []apiRequest {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []apiRequest
	for _, r := range e.reqs {
		if r.Method == method && (path == "" || r.Path == path) {
			out = append(out, r)
		}
	}
	return out
}

// addr is the engine's address.
func (e *apiEngine) addr() string { return e.srv.Listener.Addr().String() }

func apiJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// apiError answers as the engine does: {"message": ...} with the status.
func apiError(w http.ResponseWriter, status int, msg string) {
	apiJSON(w, status, map[string]string{"message": msg})
}

// hijack switches the connection to the engine's raw stream (attach,
// exec start) and hands it to stream, closing it when stream returns.
// The reader holds what the client wrote after its request (stdin).
func hijack(w http.ResponseWriter, stream func(conn net.Conn, in *bufio.Reader)) {
	conn, rw, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	_, _ = rw.WriteString("HTTP/1.1 101 UPGRADED\r\nContent-Type: application/vnd.docker.raw-stream\r\n" +
		"Connection: Upgrade\r\nUpgrade: tcp\r\n\r\n")
	_ = rw.Flush()
	stream(conn, rw.Reader)
}

// decode unmarshals a recorded body.
func decode(t *testing.T, r apiRequest, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("%s %s: body %q: %v", r.Method, r.Path, r.Body, err)
	}
}

// contains reports whether s holds every part.
func contains(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// syncBuffer is a strings.Builder safe for a writer and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
