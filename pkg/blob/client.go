package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// DefaultWriteChunkSize is the payload of one WriteRequest.
const DefaultWriteChunkSize = 256 << 10

// Client is the BlobService over gRPC with the same method set as Store.
// Errors wrap the same sentinels as Store's (errors.Is works) and keep their
// gRPC status (status.Code works).
type Client struct {
	rpc       glv1.BlobServiceClient
	chunkSize int
	spoolDir  string
}

// ClientOption configures a Client.
type ClientOption func(*Client)

// WithWriteChunkSize sets the payload size of upload messages.
func WithWriteChunkSize(n int) ClientOption {
	return func(c *Client) {
		if n > 0 {
			c.chunkSize = n
		}
	}
}

// WithSpoolDir sets where Put spools readers it cannot rewind (default: the
// system temp directory).
func WithSpoolDir(dir string) ClientOption {
	return func(c *Client) { c.spoolDir = dir }
}

// NewClient returns a Client using conn.
func NewClient(conn grpc.ClientConnInterface, opts ...ClientOption) *Client {
	c := &Client{rpc: glv1.NewBlobServiceClient(conn), chunkSize: DefaultWriteChunkSize}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Put uploads the bytes of r and returns their digest. The protocol declares
// the digest first, so r is hashed before the upload: an io.ReadSeeker is read
// twice (from its current offset), anything else is spooled to a temp file.
func (c *Client) Put(ctx context.Context, r io.Reader) (Digest, error) {
	// A pipe (os.Stdin) is an io.ReadSeeker that cannot seek: spool it.
	if rs, ok := r.(io.ReadSeeker); ok {
		if start, err := rs.Seek(0, io.SeekCurrent); err == nil {
			return c.putSeeker(ctx, rs, start)
		}
	}
	return c.putSpooled(ctx, r)
}

// PutFile uploads the file at path.
func (c *Client) PutFile(ctx context.Context, path string) (Digest, error) {
	f, err := os.Open(path)
	if err != nil {
		return Digest{}, fmt.Errorf("blob client: %w", err)
	}
	defer f.Close()
	return c.Put(ctx, f)
}

// putSeeker hashes rs from offset start, rewinds and uploads.
func (c *Client) putSeeker(ctx context.Context, rs io.ReadSeeker, start int64) (Digest, error) {
	d, _, err := copyHashed(ctx, io.Discard, rs, math.MaxInt64)
	if err != nil {
		return Digest{}, err
	}
	if _, err := rs.Seek(start, io.SeekStart); err != nil {
		return Digest{}, fmt.Errorf("blob client: rewind input: %w", err)
	}
	return c.PutVerified(ctx, d, rs)
}

// putSpooled copies r into a temp file while hashing, then uploads that.
func (c *Client) putSpooled(ctx context.Context, r io.Reader) (Digest, error) {
	f, err := os.CreateTemp(c.spoolDir, "greenlight-blob-spool-*")
	if err != nil {
		return Digest{}, fmt.Errorf("blob client: create spool file: %w", err)
	}
	defer func() {
		_ = f.Close()
		_ = os.Remove(f.Name())
	}()
	d, _, err := copyHashed(ctx, f, r, math.MaxInt64)
	if err != nil {
		return Digest{}, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Digest{}, fmt.Errorf("blob client: rewind spool file: %w", err)
	}
	return c.PutVerified(ctx, d, f)
}

// PutVerified uploads r as blob want; the server rejects other bytes with
// ErrDigestMismatch. When the server already has the blob, r is not read.
func (c *Client) PutVerified(ctx context.Context, want Digest, r io.Reader) (Digest, error) {
	if err := want.Validate(); err != nil {
		return Digest{}, err
	}
	if _, found, err := c.Stat(ctx, want); err != nil || found {
		return want, err
	}
	return c.upload(ctx, want, r)
}

// upload streams r in chunks. Leaving early (a read error, ctx) cancels the
// call, so the server discards what it received.
func (c *Client) upload(ctx context.Context, want Digest, r io.Reader) (Digest, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.rpc.Write(ctx)
	if err != nil {
		return Digest{}, fromStatus(err)
	}
	if err := c.sendAll(stream, want, r); err != nil {
		return Digest{}, err
	}
	resp, err := stream.CloseAndRecv()
	if err != nil {
		return Digest{}, fromStatus(err)
	}
	got, err := DigestFromProto(resp.GetDigest())
	if err != nil {
		return Digest{}, fmt.Errorf("blob client: server confirmed the upload of %s with a bad digest: %w", want, err)
	}
	if got != want {
		return Digest{}, fmt.Errorf("blob client: server confirmed %s for the upload of %s", got, want)
	}
	return got, nil
}

// sendAll sends the digest and the bytes of r. It returns nil as well when
// the server ended the call early; CloseAndRecv then says why.
func (c *Client) sendAll(stream grpc.ClientStreamingClient[glv1.WriteRequest, glv1.WriteResponse], want Digest, r io.Reader) error {
	first := true
	for {
		// A fresh buffer per message: gRPC may hold on to a sent message.
		buf := make([]byte, c.chunkSize)
		n, rerr := io.ReadFull(r, buf)
		last := errors.Is(rerr, io.EOF) || errors.Is(rerr, io.ErrUnexpectedEOF)
		if rerr != nil && !last {
			return fmt.Errorf("blob client: read input: %w", rerr)
		}
		req := &glv1.WriteRequest{Data: buf[:n], FinishWrite: last}
		if first {
			req.Digest, first = want.Proto(), false
		}
		if err := stream.Send(req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fromStatus(err)
		}
		if last {
			return nil
		}
	}
}

// Open streams the whole blob d. Errors such as ErrNotFound are returned here,
// not on the first Read. Closing the reader cancels the stream.
func (c *Client) Open(ctx context.Context, d Digest) (io.ReadCloser, error) {
	return c.OpenRange(ctx, d, 0, 0)
}

// OpenRange streams up to limit bytes of blob d from offset; limit 0 means
// to the end.
func (c *Client) OpenRange(ctx context.Context, d Digest, offset, limit int64) (io.ReadCloser, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	stream, err := c.rpc.Read(ctx, &glv1.ReadRequest{Digest: d.Proto(), Offset: offset, Limit: limit})
	if err != nil {
		cancel()
		return nil, fromStatus(err)
	}
	// Receive the first chunk now so that a missing blob fails Open itself.
	first, err := stream.Recv()
	r := &readStream{stream: stream, cancel: cancel}
	switch {
	case errors.Is(err, io.EOF):
		r.err = io.EOF
	case err != nil:
		cancel()
		return nil, fromStatus(err)
	default:
		r.buf = first.GetData()
	}
	return r, nil
}

// Stat reports whether blob d is stored and its size.
func (c *Client) Stat(ctx context.Context, d Digest) (size int64, found bool, err error) {
	if err := d.Validate(); err != nil {
		return 0, false, err
	}
	resp, err := c.rpc.Stat(ctx, &glv1.StatRequest{Digest: d.Proto()})
	if err != nil {
		return 0, false, fromStatus(err)
	}
	return resp.GetSizeBytes(), resp.GetFound(), nil
}
