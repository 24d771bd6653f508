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
	if err == nil && existed {
		err = drain(body, want)
	}
	if err != nil {
		return s.fail(log, err)
	}
	log.Debug("blob written", zap.Bool("already_existed", existed))
	return stream.SendAndClose(&glv1.WriteResponse{Digest: d.Proto(), AlreadyExisted: existed})
}

// drain consumes the rest of an upload whose blob is already stored, still
// refusing more bytes than were declared.
func drain(body io.Reader, want Digest) error {
	n, err := io.Copy(io.Discard, io.LimitReader(body, want.Size+1))
	if err != nil {
		return fmt.Errorf("blob store: read input: %w", err)
	}
	if n > want.Size {
		return fmt.Errorf("%w: declared %s, received more than %d bytes", ErrDigestMismatch, want, want.Size)
	}
	return nil
}

// Read streams a blob or a range of it in chunks.
func (s *server) Read(req *glv1.ReadRequest, stream grpc.ServerStreamingServer[glv1.ReadResponse]) error {
	d, err := DigestFromProto(req.GetDigest())
	if err != nil {
		return s.fail(s.log, err)
	}
	log := s.log.With(zap.Stringer("digest", d))
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
	size, found, err := s.store.Stat(ctx, d)
	if err != nil {
		return nil, s.fail(s.log.With(zap.Stringer("digest", d)), err)
	}
	return &glv1.StatResponse{Found: found, SizeBytes: size}, nil
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
