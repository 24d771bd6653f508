package main

import (
	"bytes"
	"context"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding/gzip"
	"google.golang.org/grpc/stats"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/server"
)

// wireCounter is a client stats handler adding up the payload bytes
// received, as decoded and as they crossed the wire.
type wireCounter struct{ decoded, wire atomic.Int64 }

func (w *wireCounter) TagRPC(ctx context.Context, _ *stats.RPCTagInfo) context.Context { return ctx }
func (w *wireCounter) HandleRPC(_ context.Context, s stats.RPCStats) {
	if in, ok := s.(*stats.InPayload); ok {
		w.decoded.Add(int64(in.Length))
		w.wire.Add(int64(in.CompressedLength))
	}
}
func (w *wireCounter) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context {
	return ctx
}
func (w *wireCounter) HandleConn(context.Context, stats.ConnStats) {}

// TestGzipCompressedCalls: the real gateway and loop binaries accept
// requests compressed with gzip and answer them compressed. The binaries
// are separate processes, so only their own registration of the gzip
// compressor can make this pass (this test's registration is the client's).
func TestGzipCompressedCalls(t *testing.T) {
	loop := startLoop(t, t.TempDir(), deadAddr, deadAddr)
	gw := startGateway(t, loop.Addr, "--token", token)
	data := bytes.Repeat([]byte("greenlight compresses well "), 80_000) // ~2 MiB
	for _, tt := range []struct {
		name, addr string
		ctx        func(context.Context) context.Context
	}{
		{"gateway", gw.Addr, func(ctx context.Context) context.Context { return bearer(ctx, token) }},
		{"loop", loop.Addr, func(ctx context.Context) context.Context { return ctx }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			ctx = tt.ctx(ctx)
			counter := &wireCounter{}
			conn, err := server.Dial(tt.addr, grpc.WithDefaultCallOptions(grpc.UseCompressor(gzip.Name)), grpc.WithStatsHandler(counter))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := glv1.NewRunServiceClient(conn).ListRuns(ctx, &glv1.ListRunsRequest{}); err != nil {
				t.Fatalf("gzip ListRuns: %v", err)
			}
			client := blob.NewClient(conn)
			d, err := client.Put(ctx, bytes.NewReader(data))
			if err != nil || d != blob.DigestOf(data) {
				t.Fatalf("gzip upload = %v, %v", d, err)
			}
			rc, err := client.Open(ctx, d)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(rc)
			_ = rc.Close()
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("gzip read back %d bytes, %v", len(got), err)
			}
			// The answers were compressed on the wire: the client asked by
			// compressing its own requests.
			dec, wire := counter.decoded.Load(), counter.wire.Load()
			if dec < int64(len(data)) || wire*10 > dec {
				t.Fatalf("received %d bytes decoded from %d on the wire; want the blob, compressed at least 10x", dec, wire)
			}
			t.Logf("%s: received %d bytes as %d on the wire", tt.name, dec, wire)
		})
	}
}
