package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// openBlob starts reading a blob. The first chunk is received before it
// returns, so a missing blob is an error here, not at the first Read.
func (h *handler) openBlob(ctx context.Context, d *glv1.Digest) (io.Reader, error) {
	stream, err := h.Blobs.Read(ctx, &glv1.ReadRequest{Digest: d})
	if err != nil {
		return nil, err
	}
	first, err := stream.Recv()
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return &blobReader{stream: stream, buf: first.GetData(), done: errors.Is(err, io.EOF)}, nil
}

// blobReader reads a BlobService.Read stream as an io.Reader, one chunk
// in memory at a time.
type blobReader struct {
	stream grpc.ServerStreamingClient[glv1.ReadResponse]
	buf    []byte
	done   bool
}

func (b *blobReader) Read(p []byte) (int, error) {
	for len(b.buf) == 0 {
		if b.done {
			return 0, io.EOF
		}
		msg, err := b.stream.Recv()
		if errors.Is(err, io.EOF) {
			b.done = true
			return 0, io.EOF
		}
		if err != nil {
			return 0, fmt.Errorf("read blob: %w", err)
		}
		b.buf = msg.GetData()
	}
	n := copy(p, b.buf)
	b.buf = b.buf[n:]
	return n, nil
}

// blobError answers a failed blob read: a blob the store no longer has is
// a 404 that says so (not "run not found"), anything else as upstream.
func (h *handler) blobError(w http.ResponseWriter, err error, runID, what string, d *glv1.Digest) {
	if status.Code(err) == codes.NotFound {
		h.renderError(w, http.StatusNotFound, "Not in the blob store",
			"The "+what+" of run "+quote(runID)+" ("+shortDigest(d)+") is not in the blob store any more.")
		return
	}
	h.upstreamError(w, err, runID)
}
