package gatewaysvc

import (
	"context"
	"errors"
	"fmt"
	"io"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// blobProxy forwards BlobService to the loop's blob store, capping uploads.
type blobProxy struct {
	glv1.UnimplementedBlobServiceServer
	up        glv1.BlobServiceClient
	maxUpload int64
}

var _ glv1.BlobServiceServer = (*blobProxy)(nil)

// Write forwards an upload chunk by chunk, refusing with ResourceExhausted
// as soon as the declared size or the bytes received pass the cap (the
// upstream call is cancelled, so the loop discards the partial blob).
func (p *blobProxy) Write(down grpc.ClientStreamingServer[glv1.WriteRequest, glv1.WriteResponse]) error {
	ctx, cancel := context.WithCancel(upstreamContext(down.Context()))
	defer cancel()
	up, err := p.up.Write(ctx)
	if err != nil {
		return err
	}
	var total int64
	for {
		msg, err := down.Recv()
		if errors.Is(err, io.EOF) {
			resp, err := up.CloseAndRecv()
			if err != nil {
				return err
			}
			return down.SendAndClose(resp)
		}
		if err != nil {
			return err
		}
		total += int64(len(msg.GetData()))
		if declared := msg.GetDigest().GetSizeBytes(); declared > p.maxUpload || total > p.maxUpload {
			return p.tooLarge(max(declared, total))
		}
		if err := up.Send(msg); err != nil {
			if errors.Is(err, io.EOF) {
				// The upstream ended early; its status says why.
				_, err = up.CloseAndRecv()
			}
			return err
		}
	}
}

func (p *blobProxy) tooLarge(n int64) error {
	return status.Error(codes.ResourceExhausted, fmt.Sprintf(
		"upload of %d bytes or more is larger than this gateway accepts (%d bytes, --max-upload-bytes): shrink the workspace or raise the limit",
		n, p.maxUpload))
}

// Read forwards a blob's chunks.
func (p *blobProxy) Read(req *glv1.ReadRequest, down grpc.ServerStreamingServer[glv1.ReadResponse]) error {
	up, err := p.up.Read(upstreamContext(down.Context()), req)
	if err != nil {
		return err
	}
	return pipe(up.Recv, down.Send)
}

// Stat forwards.
func (p *blobProxy) Stat(ctx context.Context, req *glv1.StatRequest) (*glv1.StatResponse, error) {
	return p.up.Stat(upstreamContext(ctx), req)
}
