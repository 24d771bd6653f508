package stack

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/pkg/server/servertest"
)

func TestDeriveReportBase(t *testing.T) {
	tests := []struct {
		addr   string
		secure bool
		want   string
	}{
		{"127.0.0.1:7070", false, "http://127.0.0.1:7080"},
		{"127.0.0.1:7070", true, "https://127.0.0.1:7080"},
		{"gateway.internal:7070", true, "https://gateway.internal:7080"},
		{"gateway.internal:7070", false, "http://gateway.internal:7080"},
		{"0.0.0.0:7070", false, "http://127.0.0.1:7080"},
		{"127.0.0.1:17070", false, "http://127.0.0.1:17080"},
		{"[::1]:7070", false, "http://[::1]:7080"},
		{"127.0.0.1:65530", true, ""},
		{"no-port", false, ""},
	}
	for _, tc := range tests {
		if got := DeriveReportBase(tc.addr, tc.secure); got != tc.want {
			t.Errorf("DeriveReportBase(%q, %v) = %q, want %q", tc.addr, tc.secure, got, tc.want)
		}
	}
}

// authRecorder is a RunService that answers ListRuns with the caller's
// authorization metadata as the page token.
type authRecorder struct {
	glv1.UnimplementedRunServiceServer
}

func (authRecorder) ListRuns(ctx context.Context, _ *glv1.ListRunsRequest) (*glv1.ListRunsResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	return &glv1.ListRunsResponse{NextPageToken: firstOf(md.Get("authorization"))}, nil
}

func (authRecorder) WatchRun(_ *glv1.WatchRunRequest, s grpc.ServerStreamingServer[glv1.WatchRunResponse]) error {
	md, _ := metadata.FromIncomingContext(s.Context())
	return status.Error(codes.Unauthenticated, firstOf(md.Get("authorization")))
}

func firstOf(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

func TestRemoteSendsTheBearerToken(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	glv1.RegisterRunServiceServer(srv, authRecorder{})
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(srv.Stop)

	tests := []struct{ token, want string }{{"s3cret", "Bearer s3cret"}, {"", ""}}
	for _, tc := range tests {
		conn, err := Remote(RemoteOptions{Addr: ln.Addr().String(), Token: tc.token})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		resp, err := conn.Run.ListRuns(ctx, &glv1.ListRunsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if resp.GetNextPageToken() != tc.want {
			t.Errorf("unary call: authorization = %q, want %q", resp.GetNextPageToken(), tc.want)
		}
		stream, err := conn.Run.WatchRun(ctx, &glv1.WatchRunRequest{RunId: "r"})
		if err == nil {
			_, err = stream.Recv()
		}
		if st, _ := status.FromError(err); st.Message() != tc.want {
			t.Errorf("streaming call: authorization = %q, want %q", st.Message(), tc.want)
		}
		cancel()
		_ = conn.Close()
	}
	if _, err := Remote(RemoteOptions{}); !errors.Is(err, ErrNoAddr) {
		t.Errorf("Remote without an address: %v, want ErrNoAddr", err)
	}
}

func TestEmbeddedStackServesTheAPI(t *testing.T) {
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := Start(ctx, Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := st.Conn()
	if err != nil {
		t.Fatal(err)
	}
	if !conn.Embedded || conn.ReportURL("r_1") != "" {
		t.Errorf("embedded conn: Embedded=%v ReportURL=%q", conn.Embedded, conn.ReportURL("r_1"))
	}
	resp, err := conn.Run.ListRuns(ctx, &glv1.ListRunsRequest{})
	if err != nil || len(resp.GetRuns()) != 0 {
		t.Fatalf("ListRuns on a fresh home: %v, %v", resp, err)
	}
	_, err = conn.Run.GetRun(ctx, &glv1.GetRunRequest{RunId: "r_20000101T000000_unknown0"})
	if status.Code(err) != codes.NotFound {
		t.Errorf("GetRun of an unknown run: %v, want NotFound", err)
	}
	// While this stack holds the home, a second one must refuse at once.
	start := time.Now()
	_, err = Start(ctx, Options{Home: home})
	var locked *LockedError
	if !errors.As(err, &locked) || !errors.Is(err, ErrLocked) || locked.Home != home {
		t.Fatalf("second Start: %v, want a LockedError for %s", err, home)
	}
	if time.Since(start) > time.Second {
		t.Errorf("detecting the lock took %v; it must not wait for the store's timeout", time.Since(start))
	}
	if err := conn.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, runStoreFile)); err != nil {
		t.Errorf("run database missing after a run: %v", err)
	}
	st2, err := Start(ctx, Options{Home: home})
	if err != nil {
		t.Fatalf("Start after Close: %v (the lock must be released)", err)
	}
	if err := st2.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestProbeLockSeesAnotherHolder(t *testing.T) {
	home := t.TempDir()
	f, err := os.Create(filepath.Join(home, runStoreFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := probeLock(home); err != nil {
		t.Fatalf("unlocked file: %v", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	err = probeLock(home)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("locked file: %v, want ErrLocked", err)
	}
	want := "another greenlight process uses " + home + ": pass --home DIR for a separate data directory, " +
		"or --addr of the greenlight serve that uses it (default 127.0.0.1:7070)"
	if err.Error() != want {
		t.Errorf("message = %q, want %q", err.Error(), want)
	}
}

func TestServeModeListensWithHealthAndReflection(t *testing.T) {
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	free := "127.0.0.1:0"
	st, err := Start(ctx, Options{Home: home, Listen: true, Gateway: true,
		Addrs: Addrs{Gateway: free, GatewayHTTP: free, Discovery: free, Executor: free, Loop: free}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	addrs := st.Addrs()
	want := map[string]string{
		addrs.Loop:      "greenlight.v1.RunService",
		addrs.Discovery: "greenlight.v1.DiscoveryService",
		addrs.Executor:  "greenlight.v1.ExecutorService",
		addrs.Gateway:   "greenlight.v1.RunService",
	}
	for addr, svc := range want {
		var opts []grpc.DialOption
		if addr != addrs.Gateway {
			// The internal listeners require the stack's service token.
			opts = append(opts, server.DialServiceToken(st.ServiceToken()))
		}
		conn, err := server.Dial(addr, opts...)
		if err != nil {
			t.Fatal(err)
		}
		names, err := servertest.ListServices(ctx, conn)
		if err != nil {
			t.Fatalf("%s: reflection: %v", addr, err)
		}
		if !contains(names, svc) || !contains(names, "grpc.health.v1.Health") {
			t.Errorf("%s lists %v, want %s and health", addr, names, svc)
		}
		if s, err := servertest.Health(ctx, conn, ""); err != nil || s.String() != "SERVING" {
			t.Errorf("%s health: %v %v", addr, s, err)
		}
		_ = conn.Close()
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-st.Done():
	default:
		t.Error("Done not closed after Close")
	}
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// TestServeModeInternalListenersRequireServiceToken: in `greenlight serve`
// the executor (which holds the Docker socket), discovery and the loop
// listen on TCP; a local process without the stack's service token gets
// Unauthenticated from each (health stays open for probes), while the
// stack's own wiring and a caller with the token work.
func TestServeModeInternalListenersRequireServiceToken(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	free := "127.0.0.1:0"
	st, err := Start(ctx, Options{Home: t.TempDir(), Listen: true, Gateway: true,
		Addrs: Addrs{Gateway: free, GatewayHTTP: free, Discovery: free, Executor: free, Loop: free}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if len(st.ServiceToken()) < server.MinServiceTokenLength {
		t.Fatalf("serve mode made no service token: %q", st.ServiceToken())
	}
	addrs := st.Addrs()
	for _, addr := range []string{addrs.Loop, addrs.Discovery, addrs.Executor} {
		conn, err := server.Dial(addr)
		if err != nil {
			t.Fatal(err)
		}
		if err := reflectionCode(ctx, conn); status.Code(err) != codes.Unauthenticated {
			t.Errorf("%s: reflection without the service token: %v, want Unauthenticated", addr, err)
		}
		if s, err := servertest.Health(ctx, conn, ""); err != nil || s.String() != "SERVING" {
			t.Errorf("%s: health without the service token: %v %v, want SERVING", addr, s, err)
		}
		_ = conn.Close()
	}
	conn, err := server.Dial(addrs.Loop)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := glv1.NewRunServiceClient(conn).ListRuns(ctx, &glv1.ListRunsRequest{}); status.Code(err) != codes.Unauthenticated {
		t.Fatalf("loop ListRuns without the service token: %v, want Unauthenticated", err)
	}
	// The gateway reaches the loop with the token: a public call through it works.
	gw, err := Remote(RemoteOptions{Addr: addrs.Gateway})
	if err != nil {
		t.Fatal(err)
	}
	defer gw.Close()
	if _, err := gw.Run.ListRuns(ctx, &glv1.ListRunsRequest{}); err != nil {
		t.Fatalf("ListRuns through the gateway: %v", err)
	}
}

// reflectionCode opens a reflection stream, asks for the service list and
// returns the stream's final error (a refused stream may fail Send with
// EOF; its status comes with Recv).
func reflectionCode(ctx context.Context, conn grpc.ClientConnInterface) error {
	stream, err := reflectionpb.NewServerReflectionClient(conn).ServerReflectionInfo(ctx)
	if err != nil {
		return err
	}
	_ = stream.Send(&reflectionpb.ServerReflectionRequest{
		MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{ListServices: "*"}})
	_, err = stream.Recv()
	return err
}
