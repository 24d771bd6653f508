package gatewaysvc

import (
	"bytes"
	"crypto/rand"
	"io"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/server"
)

func randomBytes(t *testing.T, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBlobWriteReadStatThroughTheGateway(t *testing.T) {
	g := startGateway(t, nil)
	ctx := testContext(t)
	data := randomBytes(t, 3<<20) // several chunks each way
	client := blob.NewClient(g.conn)

	d, err := client.Put(ctx, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if d != blob.DigestOf(data) {
		t.Fatalf("digest = %v, want %v", d, blob.DigestOf(data))
	}
	if size, found, err := g.loop.Blobs.Stat(ctx, d); err != nil || !found || size != int64(len(data)) {
		t.Fatalf("loop store Stat = %d, %v, %v; the blob did not arrive", size, found, err)
	}
	rc, err := client.Open(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	_ = rc.Close()
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read back %d bytes, %v; want the %d written", len(got), err, len(data))
	}
	if size, found, err := client.Stat(ctx, d); err != nil || !found || size != int64(len(data)) {
		t.Fatalf("Stat = %d, %v, %v", size, found, err)
	}
	if _, found, err := client.Stat(ctx, blob.DigestOf([]byte("absent"))); err != nil || found {
		t.Fatalf("Stat of an absent blob = %v, %v; want not found", found, err)
	}
}

func TestBlobWriteDigestMismatchIsTheLoopsInvalidArgument(t *testing.T) {
	g := startGateway(t, nil)
	stream, err := g.blobs.Write(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	wrong := blob.DigestOf([]byte("something else")).Proto()
	wrong.SizeBytes = 5
	if err := stream.Send(&glv1.WriteRequest{Digest: wrong, Data: []byte("hello"), FinishWrite: true}); err != nil {
		t.Fatal(err)
	}
	_, err = stream.CloseAndRecv()
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("mismatched upload = %v, want InvalidArgument from the blob store", err)
	}
}

func TestUploadCap(t *testing.T) {
	const limit = 1 << 20
	tests := []struct {
		name     string
		declared int64 // 0: honest
		size     int
	}{
		{"declared too large", 0, 2 * limit},
		{"declared far too large", 100 * limit, limit / 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := startGateway(t, func(c *Config, _ *server.Config) { c.MaxUploadBytes = limit })
			data := randomBytes(t, tt.size)
			d := blob.DigestOf(data).Proto()
			if tt.declared > 0 {
				d.SizeBytes = tt.declared
			}
			stream, err := g.blobs.Write(testContext(t))
			if err != nil {
				t.Fatal(err)
			}
			for off := 0; off < len(data); off += 256 << 10 {
				msg := &glv1.WriteRequest{Data: data[off:min(off+256<<10, len(data))]}
				if off == 0 {
					msg.Digest = d
				}
				if stream.Send(msg) != nil {
					break // the gateway refused; CloseAndRecv reports why
				}
			}
			_, err = stream.CloseAndRecv()
			if st := status.Convert(err); st.Code() != codes.ResourceExhausted || !strings.Contains(st.Message(), "--max-upload-bytes") {
				t.Fatalf("upload = %v, want ResourceExhausted naming --max-upload-bytes", err)
			}
			if _, found, _ := g.loop.Blobs.Stat(testContext(t), blob.DigestOf(data)); found {
				t.Fatal("a refused upload was stored")
			}
		})
	}
}

func TestUploadUnderTheCapPasses(t *testing.T) {
	g := startGateway(t, func(c *Config, _ *server.Config) { c.MaxUploadBytes = 1 << 20 })
	data := randomBytes(t, 1<<20)
	if _, err := blob.NewClient(g.conn).Put(testContext(t), bytes.NewReader(data)); err != nil {
		t.Fatalf("upload of exactly the cap = %v", err)
	}
}

func TestMessageSizeLimit(t *testing.T) {
	g := startGateway(t, func(_ *Config, s *server.Config) { s.MaxRecvMsgBytes = 64 << 10 })
	stream, err := g.blobs.Write(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	data := randomBytes(t, 128<<10)
	_ = stream.Send(&glv1.WriteRequest{Digest: blob.DigestOf(data).Proto(), Data: data})
	if _, err := stream.CloseAndRecv(); status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("oversized message = %v, want ResourceExhausted", err)
	}
}
