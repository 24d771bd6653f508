package runnerproto

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Kind says what a frame carries.
type Kind byte

// Frame kinds. Executor to runner: Start, Stdin, CloseStdin, Kill. Runner
// to executor: Hello, Stdout, Stderr, Exit.
const (
	// KindHello (JSON Hello, id 0) is the runner's first frame.
	KindHello Kind = 'H'
	// KindStart (JSON Start) starts process id.
	KindStart Kind = 'S'
	// KindStdin (raw) is input for process id.
	KindStdin Kind = 'I'
	// KindCloseStdin (empty) closes process id's input.
	KindCloseStdin Kind = 'C'
	// KindKill (empty) kills process id's process group.
	KindKill Kind = 'K'
	// KindStdout and KindStderr (raw) are output of process id.
	KindStdout Kind = 'O'
	KindStderr Kind = 'E'
	// KindExit (JSON Exit) is process id's last frame.
	KindExit Kind = 'X'
)

// valid reports whether k is a known kind.
func (k Kind) valid() bool {
	switch k {
	case KindHello, KindStart, KindStdin, KindCloseStdin, KindKill, KindStdout, KindStderr, KindExit:
		return true
	}
	return false
}

// String names the kind for messages.
func (k Kind) String() string {
	if k.valid() {
		return string(rune(k))
	}
	return fmt.Sprintf("0x%02x", byte(k))
}

const (
	// headerLen is the fixed part of a frame: length, kind, id.
	headerLen = 4 + 1 + 4
	// MaxPayload bounds a frame's payload; a longer frame is a protocol
	// error (never a reason to allocate).
	MaxPayload = 1 << 20
	// ChunkBytes is how much output one data frame carries at most.
	ChunkBytes = 32 << 10
)

// Protocol errors.
var (
	// ErrMalformed marks a stream that does not follow the protocol.
	ErrMalformed = errors.New("malformed runner frame")
)

// Frame is one decoded frame. Payload is only valid until the next call to
// Reader.Next.
type Frame struct {
	Kind    Kind
	ID      uint32
	Payload []byte
}

// Decode unmarshals a JSON payload into v.
func (f Frame) Decode(v any) error {
	if err := json.Unmarshal(f.Payload, v); err != nil {
		return fmt.Errorf("%w: %s frame: %w", ErrMalformed, f.Kind, err)
	}
	return nil
}

// Reader decodes frames from a stream.
type Reader struct {
	r   *bufio.Reader
	buf []byte
}

// NewReader returns a Reader on r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 64<<10)}
}

// Next returns the next frame: io.EOF at a clean end between frames,
// io.ErrUnexpectedEOF inside one, ErrMalformed for a frame that breaks the
// protocol (unknown kind, bad length).
func (r *Reader) Next() (Frame, error) {
	var hdr [headerLen]byte
	if _, err := io.ReadFull(r.r, hdr[:]); err != nil {
		return Frame{}, err
	}
	n := binary.BigEndian.Uint32(hdr[0:4])
	kind := Kind(hdr[4])
	switch {
	case n < 5:
		return Frame{}, fmt.Errorf("%w: length %d shorter than its header", ErrMalformed, n)
	case n-5 > MaxPayload:
		return Frame{}, fmt.Errorf("%w: payload of %d bytes over the %d-byte limit", ErrMalformed, n-5, MaxPayload)
	case !kind.valid():
		return Frame{}, fmt.Errorf("%w: unknown kind %s", ErrMalformed, kind)
	}
	size := int(n - 5)
	if cap(r.buf) < size {
		r.buf = make([]byte, size)
	}
	payload := r.buf[:size]
	if _, err := io.ReadFull(r.r, payload); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return Frame{}, err
	}
	return Frame{Kind: kind, ID: binary.BigEndian.Uint32(hdr[5:9]), Payload: payload}, nil
}

// Writer encodes frames onto a stream; it is safe for concurrent use and
// writes each frame with one Write call.
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Frame writes one frame.
func (w *Writer) Frame(kind Kind, id uint32, payload []byte) error {
	if len(payload) > MaxPayload {
		return fmt.Errorf("%w: payload of %d bytes over the %d-byte limit", ErrMalformed, len(payload), MaxPayload)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = AppendFrame(w.buf[:0], kind, id, payload)
	_, err := w.w.Write(w.buf)
	return err
}

// JSON writes a frame whose payload is v as JSON.
func (w *Writer) JSON(kind Kind, id uint32, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding a %s frame: %w", kind, err)
	}
	return w.Frame(kind, id, b)
}

// AppendFrame appends the encoding of one frame to b.
func AppendFrame(b []byte, kind Kind, id uint32, payload []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(payload)+5))
	b = append(b, byte(kind))
	b = binary.BigEndian.AppendUint32(b, id)
	return append(b, payload...)
}
