package blob

import (
	"errors"
	"io"
	"os"

	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// writeStream reads the payload of a Write call as an io.Reader, one message
// at a time, so the store never holds more than one chunk in memory.
type writeStream struct {
	stream grpc.ClientStreamingServer[glv1.WriteRequest, glv1.WriteResponse]
	buf    []byte
	// done is set by finish_write or the end of the stream.
	done bool
	// touched is set by the first Read: the store read (and checked) the
	// payload, rather than finding the blob already stored.
	touched bool
}

func newWriteStream(stream grpc.ClientStreamingServer[glv1.WriteRequest, glv1.WriteResponse], first *glv1.WriteRequest) *writeStream {
	return &writeStream{stream: stream, buf: first.GetData(), done: first.GetFinishWrite()}
}

// Read returns payload bytes, receiving the next message when needed.
func (w *writeStream) Read(p []byte) (int, error) {
	w.touched = true
	for len(w.buf) == 0 {
		if w.done {
			return 0, io.EOF
		}
		msg, err := w.stream.Recv()
		if errors.Is(err, io.EOF) {
			w.done = true
			return 0, io.EOF
		}
		if err != nil {
			return 0, err
		}
		w.buf, w.done = msg.GetData(), msg.GetFinishWrite()
	}
	n := copy(p, w.buf)
	w.buf = w.buf[n:]
	return n, nil
}

// readStream is the io.ReadCloser Client.Open returns: it pulls chunks from a
// Read call; Close cancels the call.
type readStream struct {
	stream grpc.ServerStreamingClient[glv1.ReadResponse]
	cancel func()
	buf    []byte
	err    error // sticky: io.EOF, a mapped server error, or os.ErrClosed
}

// Read returns blob bytes, receiving the next chunk when needed.
func (r *readStream) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		msg, err := r.stream.Recv()
		if errors.Is(err, io.EOF) {
			r.err = io.EOF
			continue
		}
		if err != nil {
			r.err = fromStatus(err)
			continue
		}
		r.buf = msg.GetData()
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// Close cancels the stream; reading afterwards fails with os.ErrClosed.
func (r *readStream) Close() error {
	r.cancel()
	r.buf, r.err = nil, os.ErrClosed
	return nil
}
