package main

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/pkg/server/servertest"
)

// servingLine is what `greenlight serve` prints once it listens.
var servingLine = regexp.MustCompile(`^greenlight: serving; gateway (\S+) \(reports https?://(\S+)\), loop (\S+), discovery (\S+), executor (\S+);`)

// served is a running `greenlight serve`.
type served struct {
	cmd                                *exec.Cmd
	gateway, loop, discovery, executor string
	done                               chan struct{}
	mu                                 sync.Mutex
	logs                               strings.Builder
}

// serveServiceToken is the service token the tests give `greenlight serve`.
const serveServiceToken = "serve-test-service-token-0123456789"

// startServe runs `greenlight serve` on free loopback ports.
// extra are more serve flags.
func startServe(t *testing.T, ctx context.Context, u *user, extra ...string) *served {
	t.Helper()
	free := "127.0.0.1:0"
	cmd := exec.CommandContext(ctx, bin, append([]string{"serve", "--gateway-addr", free, "--http-addr", free, "--loop-addr", free,
		"--discovery-addr", free, "--executor-addr", free, "--pool-size", "0", "--log-level", "warn"}, extra...)...)
	cmd.Env = append(u.environ(), "GREENLIGHT_SERVICE_TOKEN="+serveServiceToken)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &served{cmd: cmd, done: make(chan struct{})}
	ready := make(chan []string, 1)
	go s.scan(stderr, ready)
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-s.done
		if t.Failed() {
			t.Logf("serve stderr:\n%s", s.output())
		}
	})
	select {
	case m := <-ready:
		s.gateway, s.loop, s.discovery, s.executor = m[1], m[3], m[4], m[5]
	case <-s.done:
		t.Fatalf("serve exited before serving:\n%s", s.output())
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not start within 30s:\n%s", s.output())
	}
	return s
}

func (s *served) scan(r io.Reader, ready chan<- []string) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		s.mu.Lock()
		s.logs.WriteString(sc.Text() + "\n")
		s.mu.Unlock()
		if m := servingLine.FindStringSubmatch(sc.Text()); m != nil {
			ready <- m
		}
	}
	_ = s.cmd.Wait()
	close(s.done)
}

func (s *served) output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logs.String()
}

// publicAddr is the gateway, the address clients are told to use. While
// the gateway's proxy is not implemented (RunService answers
// Unimplemented) the test says so and uses the loop, which serves the
// same API.
func (s *served) publicAddr(t *testing.T) string {
	t.Helper()
	conn, err := server.Dial(s.gateway)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err = glv1.NewRunServiceClient(conn).ListRuns(ctx, &glv1.ListRunsRequest{})
	if status.Code(err) == codes.Unimplemented {
		t.Logf("NOTE: the gateway at %s does not proxy RunService yet (Unimplemented); using the loop at %s", s.gateway, s.loop)
		return s.loop
	}
	if err != nil {
		t.Fatalf("ListRuns through the gateway: %v", err)
	}
	return s.gateway
}

// stop sends SIGTERM and expects a clean exit.
func (s *served) stop(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop within 30s of SIGTERM")
	}
	if code := s.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("serve exited %d after SIGTERM, want 0\n%s", code, s.output())
	}
}

// checkServeAPI lists services by reflection (as `grpcurl list` does) and
// checks health on every address.
func checkServeAPI(t *testing.T, s *served) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for addr, svc := range map[string]string{
		s.gateway: "greenlight.v1.RunService", s.loop: "greenlight.v1.BlobService",
		s.discovery: "greenlight.v1.DiscoveryService", s.executor: "greenlight.v1.ExecutorService",
	} {
		var opts []grpc.DialOption
		if addr != s.gateway {
			// The internal services answer only callers with the service token.
			opts = append(opts, server.DialServiceToken(serveServiceToken))
		}
		conn, err := server.Dial(addr, opts...)
		if err != nil {
			t.Fatal(err)
		}
		names, err := servertest.ListServices(ctx, conn)
		if err != nil {
			t.Fatalf("reflection on %s: %v", addr, err)
		}
		if !strings.Contains(strings.Join(names, " "), svc) || !strings.Contains(strings.Join(names, " "), "grpc.reflection") {
			t.Errorf("%s lists %v; want %s and reflection", addr, names, svc)
		}
		if st, err := servertest.Health(ctx, conn, ""); err != nil || st.String() != "SERVING" {
			t.Errorf("%s health: %v %v", addr, st, err)
		}
		_ = conn.Close()
	}
	// Without the token the executor (which holds the Docker socket)
	// answers nothing but health.
	bare, err := server.Dial(s.executor)
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	stream, err := glv1.NewExecutorServiceClient(bare).Execute(ctx, &glv1.ExecuteRequest{})
	if err == nil {
		_, err = stream.Recv()
	}
	if status.Code(err) != codes.Unauthenticated {
		t.Errorf("Execute on serve's executor without the service token: %v, want Unauthenticated", err)
	}
}
