package executorsvc

import (
	"context"
	"net"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// Row 24: when the engine is gone (a socket nobody serves) or wedged (a
// socket that accepts and never answers), Execute fails fast with
// Unavailable, and nothing leaks once the service is closed.
func TestEngineUnavailableFailsFast(t *testing.T) {
	testenv.Integration(t)
	dir := t.TempDir()
	hung := filepath.Join(dir, "hung.sock")
	lis, err := net.Listen("unix", hung)
	if err != nil {
		t.Fatal(err)
	}
	defer lis.Close()
	go func() {
		var conns []net.Conn // held open, never answered, until the listener closes
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	cases := []struct {
		name, host string
		within     time.Duration
	}{
		{"gone", "unix://" + filepath.Join(dir, "nobody.sock"), 2 * time.Second},
		{"wedged", "unix://" + hung, 8 * time.Second},
	}
	for _, tc := range cases {
		before := runtime.NumGoroutine()
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t)
			cfg.DockerHost = tc.host
			blobs := testenv.Blobs(t)
			svc, err := New(cfg, blobs, testenv.Logger(t))
			if err != nil {
				t.Fatalf("New must succeed while the engine is down: %v", err)
			}
			client := serve(t, svc)
			e := &env{t: t, blobs: blobs, svc: svc}
			e.client = newClient(client)
			start := time.Now()
			r := e.execute(context.Background(), e.request(nil, sh("x", "true")))
			took := time.Since(start)
			st, _ := status.FromError(r.err)
			if st.Code() != codes.Unavailable || took > tc.within || !strings.Contains(st.Message(), "engine") {
				t.Errorf("got %v %q after %s, want Unavailable within %s", st.Code(), st.Message(), took, tc.within)
			}
			if err := svc.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		})
		waitGoroutines(t, before)
	}
}

// waitGoroutines fails t unless the goroutine count drops to at most n.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines, want at most %d:\n%s", runtime.NumGoroutine(), n, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(50 * time.Millisecond)
	}
}
