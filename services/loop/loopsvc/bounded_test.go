package loopsvc_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
	"github.com/greenlight-dev/greenlight/services/loop/loopsvc"
)

// TestUploadInFlightCapIsWired: the loop's BlobService enforces
// Config.UploadInFlightBytes: while one upload is open, a second that would
// pass the cap gets ResourceExhausted naming it.
func TestUploadInFlightCapIsWired(t *testing.T) {
	cfg := loopsvc.DefaultConfig()
	cfg.DataDir = t.TempDir()
	cfg.UploadInFlightBytes = 1000
	svc, err := loopsvc.New(context.Background(), cfg, zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	conn := enginetest.Serve(t, func(s *grpc.Server) { svc.Register(s) })
	raw := glv1.NewBlobServiceClient(conn)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	// Hold one 600-byte upload open, then try a second one.
	first := blob.DigestOf([]byte(strings.Repeat("a", 600)))
	open, err := raw.Write(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := open.Send(&glv1.WriteRequest{Digest: first.Proto(), Data: []byte("aaa")}); err != nil {
		t.Fatal(err)
	}
	// Its temp file exists once its reservation is booked.
	tmp := filepath.Join(cfg.DataDir, "blobs", "tmp")
	deadline := time.Now().Add(10 * time.Second)
	for entries, _ := os.ReadDir(tmp); len(entries) == 0; entries, _ = os.ReadDir(tmp) {
		if time.Now().After(deadline) {
			t.Fatal("the first upload never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	second := blob.DigestOf([]byte(strings.Repeat("b", 600)))
	w, err := raw.Write(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Send(&glv1.WriteRequest{Digest: second.Proto(), Data: []byte(strings.Repeat("b", 600)), FinishWrite: true}); err != nil {
		t.Fatal(err)
	}
	_, err = w.CloseAndRecv()
	if st := status.Convert(err); st.Code() != codes.ResourceExhausted || !strings.Contains(st.Message(), "cap of 1000 bytes") {
		t.Fatalf("second upload: %v, want ResourceExhausted naming the cap", err)
	}
}
