package blob

import (
	"context"
	"errors"
	"fmt"
	"io"

	"go.uber.org/zap"
	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// DefaultReadChunkSize is the payload of one ReadResponse: well under gRPC's
// 4 MiB default message limit, large enough to keep per-message cost small.
const DefaultReadChunkSize = 256 << 10

// server implements greenlight.v1.BlobService over a Store.
type server struct {
	glv1.UnimplementedBlobServiceServer
	store     *Store
	log       *zap.Logger
	chunkSize int
	inflight  *inflight
	access    Access
}

var _ glv1.BlobServiceServer = (*server)(nil)

// ServerOption configures the BlobService server.
type ServerOption func(*server)

// WithReadChunkSize sets the payload size of the messages Read streams.
func WithReadChunkSize(n int) ServerOption {
	return func(s *server) {
		if n > 0 {
			s.chunkSize = n
		}
	}
}

// Access decides which blobs the caller of a request may see. The store
// is content-addressed and shared by every client, so knowing a digest
// must not be enough to read a blob: a policy lets a caller read what it
// uploaded itself or what belongs to its own runs.
type Access interface {
	// Readable reports whether the caller of ctx may read blob d or learn
	// that it is stored. A blob that is not readable is answered exactly
	// like one that is not stored (NotFound, or Stat's found=false), so
	// that a digest's existence does not leak either.
	Readable(ctx context.Context, d Digest) (bool, error)
	// Wrote records that the caller of ctx uploaded blob d in full (its
	// bytes were checked against d, whether or not it was stored before).
	Wrote(ctx context.Context, d Digest) error
}

// WithAccess makes the server check every Read and Stat against a and
// tell a of every finished upload. Without it every caller may read every
// blob (greenlight's own services, an embedded store).
func WithAccess(a Access) ServerOption {
	return func(s *server) { s.access = a }
}

// NewServer returns the BlobService backed by store. The store's maximum blob
// size is the upload limit.
func NewServer(store *Store, log *zap.Logger, opts ...ServerOption) glv1.BlobServiceServer {
	s := &server{store: store, log: log, chunkSize: DefaultReadChunkSize,
		inflight: &inflight{cap: DefaultMaxInFlightBytes}}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Write receives one blob. The first message carries the digest; the bytes
// stream straight into the store (never buffered whole), which verifies
// them before the blob becomes visible.
func (s *server) Write(stream grpc.ClientStreamingServer[glv1.WriteRequest, glv1.WriteResponse]) error {
	first, err := stream.Recv()
	if errors.Is(err, io.EOF) {
		return s.fail(s.log, fmt.Errorf("%w: the upload stream is empty; its first message must carry the digest", ErrInvalidDigest))
	}
	if err != nil {
		return s.fail(s.log, err)
	}
	want, err := DigestFromProto(first.GetDigest())
	if err != nil {
		return s.fail(s.log, fmt.Errorf("first WriteRequest must carry the blob's digest: %w", err))
	}
	log := s.log.With(zap.Stringer("digest", want))
	// The declared size is what the temp file may grow to; booking it up
	// front bounds the disk all concurrent uploads can hold.
	if err := s.inflight.reserve(want.Size); err != nil {
		return s.fail(log, err)
	}
	defer s.inflight.release(want.Size)
	body := newWriteStream(stream, first)
	d, existed, err := s.store.putVerified(stream.Context(), want, body)
	if err == nil && existed && !body.touched {
		err = drain(stream.Context(), body, want)
	}
	if err != nil {
		return s.fail(log, err)
	}
	if s.access != nil {
		if err := s.access.Wrote(stream.Context(), d); err != nil {
			return s.fail(log, err)
		}
	}
	log.Debug("blob written", zap.Bool("already_existed", existed))
	return stream.SendAndClose(&glv1.WriteResponse{Digest: d.Proto(), AlreadyExisted: existed})
}

// drain consumes the rest of an upload whose blob is already stored and
// checks it like a new one: the uploader must send exactly the declared
// bytes. That an upload "already existed" is only said to one who proved it
// holds the content, since with WithAccess a completed upload opens the
// blob to its uploader.
func drain(ctx context.Context, body io.Reader, want Digest) error {
	got, over, err := copyHashed(ctx, io.Discard, body, want.Size)
	if err != nil {
		return err
	}
	return checkWritten(&want, got, over, want.Size)
}

// Read streams a blob or a range of it in chunks.
func (s *server) Read(req *glv1.ReadRequest, stream grpc.ServerStreamingServer[glv1.ReadResponse]) error {
	d, err := DigestFromProto(req.GetDigest())
	if err != nil {
		return s.fail(s.log, err)
	}
	log := s.log.With(zap.Stringer("digest", d))
	if err := s.checkReadable(stream.Context(), d); err != nil {
		return s.fail(log, err)
	}
	rc, err := s.store.OpenRange(stream.Context(), d, req.GetOffset(), req.GetLimit())
	if err != nil {
		return s.fail(log, err)
	}
	defer rc.Close()
	if err := s.send(rc, stream); err != nil {
		return s.fail(log, err)
	}
	return nil
}

// send copies r to the stream, one fresh buffer per message: gRPC may still
// hold a sent message, so buffers are not reused.
func (s *server) send(r io.Reader, stream grpc.ServerStreamingServer[glv1.ReadResponse]) error {
	for {
		buf := make([]byte, s.chunkSize)
		n, err := io.ReadFull(r, buf)
		if n > 0 {
			if serr := stream.Send(&glv1.ReadResponse{Data: buf[:n]}); serr != nil {
				return serr
			}
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("blob store: read blob: %w", err)
		}
	}
}

// Stat says whether a blob is stored.
func (s *server) Stat(ctx context.Context, req *glv1.StatRequest) (*glv1.StatResponse, error) {
	d, err := DigestFromProto(req.GetDigest())
	if err != nil {
		return nil, s.fail(s.log, err)
	}
	if err := s.checkReadable(ctx, d); errors.Is(err, ErrNotFound) {
		return &glv1.StatResponse{}, nil
	} else if err != nil {
		return nil, s.fail(s.log.With(zap.Stringer("digest", d)), err)
	}
	size, found, err := s.store.Stat(ctx, d)
	if err != nil {
		return nil, s.fail(s.log.With(zap.Stringer("digest", d)), err)
	}
	return &glv1.StatResponse{Found: found, SizeBytes: size}, nil
}

// checkReadable asks the access policy about d: a blob the caller may not
// see is the store's own ErrNotFound, word for word.
func (s *server) checkReadable(ctx context.Context, d Digest) error {
	if s.access == nil {
		return nil
	}
	ok, err := s.access.Readable(ctx, d)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%w: %s", ErrNotFound, d)
	}
	return nil
}

// fail maps err to a gRPC status, logging unexpected errors in full.
func (s *server) fail(log *zap.Logger, err error) error {
	st, internal := toStatus(err)
	if internal {
		log.Error("blob request failed", zap.Error(err))
	} else {
		log.Debug("blob request refused", zap.Error(err))
	}
	return st
}
