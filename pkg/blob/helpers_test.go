package blob

import (
	"context"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// blobs is the method set Store and Client share; callers define interfaces
// like this one, and this assertion keeps the two in step.
type blobs interface {
	Put(ctx context.Context, r io.Reader) (Digest, error)
	PutVerified(ctx context.Context, want Digest, r io.Reader) (Digest, error)
	PutFile(ctx context.Context, path string) (Digest, error)
	Open(ctx context.Context, d Digest) (io.ReadCloser, error)
	OpenRange(ctx context.Context, d Digest, offset, limit int64) (io.ReadCloser, error)
	Stat(ctx context.Context, d Digest) (int64, bool, error)
}

var (
	_ blobs = (*Store)(nil)
	_ blobs = (*Client)(nil)
)

// newTestStore opens a Store in a fresh temp directory.
func newTestStore(t testing.TB, opts ...Option) *Store {
	t.Helper()
	s, err := NewStore(t.TempDir(), opts...)
	if err != nil {
		t.Fatalf("NewStore: %v", err)
	}
	return s
}

// randomBytes returns n deterministic pseudo-random bytes.
func randomBytes(n int, seed uint64) []byte {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	b := make([]byte, n)
	_, _ = rand.NewChaCha8(key).Read(b)
	return b
}

// remote is a BlobService served over a real gRPC connection.
type remote struct {
	store  *Store
	client *Client
	raw    glv1.BlobServiceClient
}

// serveBufconn serves store over an in-memory gRPC connection.
func serveBufconn(t testing.TB, store *Store, opts ...ClientOption) *remote {
	t.Helper()
	return serveBufconnWith(t, store, nil, opts...)
}

// serveBufconnWith is serveBufconn with options for the server.
func serveBufconnWith(t testing.TB, store *Store, srvOpts []ServerOption, opts ...ClientOption) *remote {
	t.Helper()
	lis := bufconn.Listen(4 << 20)
	dial := grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
		return lis.DialContext(ctx)
	})
	return serve(t, store, lis, "passthrough:///bufconn", []grpc.DialOption{dial}, opts, srvOpts...)
}

// serveTCP serves store on a loopback TCP port.
func serveTCP(t testing.TB, store *Store) *remote {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	return serve(t, store, lis, lis.Addr().String(), nil, nil)
}

func serve(t testing.TB, store *Store, lis net.Listener, target string, dialOpts []grpc.DialOption, opts []ClientOption, srvOpts ...ServerOption) *remote {
	t.Helper()
	// Debug logs help a failing test; in benchmarks they are noise.
	level := zap.DebugLevel
	if _, ok := t.(*testing.B); ok {
		level = zap.InfoLevel
	}
	// WaitForHandlers: Stop in cleanup returns only after every handler has
	// returned, so none logs to a finished test.
	srv := grpc.NewServer(grpc.WaitForHandlers(true))
	glv1.RegisterBlobServiceServer(srv, NewServer(store, zaptest.NewLogger(t, zaptest.Level(level)), srvOpts...))
	go func() { _ = srv.Serve(lis) }()
	dialOpts = append(dialOpts, grpc.WithTransportCredentials(insecure.NewCredentials()))
	conn, err := grpc.NewClient(target, dialOpts...)
	if err != nil {
		t.Fatalf("grpc.NewClient: %v", err)
	}
	t.Cleanup(func() {
		_ = conn.Close()
		srv.Stop()
	})
	return &remote{store: store, client: NewClient(conn, opts...), raw: glv1.NewBlobServiceClient(conn)}
}

// testContext is a context that ends with the test (and after a minute at most).
func testContext(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// storedBlobs lists every blob in the store.
func storedBlobs(t testing.TB, s *Store) []Digest {
	t.Helper()
	var out []Digest
	err := s.Walk(context.Background(), func(b BlobInfo) error {
		out = append(out, b.Digest)
		return nil
	})
	if err != nil {
		t.Fatalf("Walk: %v", err)
	}
	return out
}

// tempFiles lists the store's temp directory.
func tempFiles(t testing.TB, s *Store) []string {
	t.Helper()
	entries, err := os.ReadDir(s.tmpDir())
	if err != nil {
		t.Fatalf("read tmp dir: %v", err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// assertEmpty fails unless the store holds no blob and no temp file; temp
// files of aborted uploads may take a moment to go when the abort came over
// the network, so it waits briefly for them.
func assertEmpty(t testing.TB, s *Store) {
	t.Helper()
	if got := storedBlobs(t, s); len(got) != 0 {
		t.Errorf("store holds %v, want nothing", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(tempFiles(t, s)) != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := tempFiles(t, s); len(got) != 0 {
		t.Errorf("temp dir holds %v, want nothing", got)
	}
}
