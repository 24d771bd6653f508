package executorsvc

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap/zaptest"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// New starts while the engine is down (each RPC finds out), a run is then
// Unavailable, naming the engine, and Close leaves nothing running; a bad
// configuration is refused before anything starts.
func TestNewWithoutEngine(t *testing.T) {
	cfg := testConfig(t)
	cfg.DockerHost = "unix://" + filepath.Join(t.TempDir(), "no-engine.sock")
	cfg.EgressPolicy = EgressOff // the host's iptables are not the test's to touch
	blobs := testenv.Blobs(t)
	svc, err := New(cfg, blobs, zaptest.NewLogger(t))
	if err != nil {
		t.Fatalf("New without an engine: %v", err)
	}
	e := &env{t: t, blobs: blobs, svc: svc, client: newClient(serve(t, svc)), owner: "new-test"}
	st, _ := status.FromError(e.execute(context.Background(), e.request(nil, sh("ok", "true"))).err)
	if st.Code() != codes.Unavailable || !strings.Contains(st.Message(), "engine") {
		t.Errorf("a run without an engine: %v %q, want Unavailable naming the engine", st.Code(), st.Message())
	}
	if err := svc.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}

	cfg.MaxSandboxes = 0
	if _, err := New(cfg, blobs, zaptest.NewLogger(t)); err == nil || !strings.Contains(err.Error(), "max-sandboxes") {
		t.Errorf("New with a bad configuration: %v", err)
	}
	cfg.MaxSandboxes, cfg.DockerHost = 1, "not a url ::"
	if _, err := New(cfg, blobs, zaptest.NewLogger(t)); err == nil {
		t.Errorf("New with a malformed engine address succeeded")
	}
}
