package gocache

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// The commands of the GOCACHEPROG protocol this program serves
// (cmd/go/internal/cacheprog.Cmd).
const (
	cmdGet   = "get"
	cmdPut   = "put"
	cmdClose = "close"
)

// request is cmd/go/internal/cacheprog.Request as it arrives on stdin: one
// JSON object a line; a put with BodySize > 0 is followed by its body as a
// base64 JSON string, read separately (readBody) so that large outputs
// stream to disk instead of through memory.
type request struct {
	ID       int64
	Command  string
	ActionID []byte `json:",omitempty"`
	OutputID []byte `json:",omitempty"`
	BodySize int64  `json:",omitempty"`
}

// response is cmd/go/internal/cacheprog.Response.
type response struct {
	ID            int64
	Err           string     `json:",omitempty"`
	KnownCommands []string   `json:",omitempty"`
	Miss          bool       `json:",omitempty"`
	OutputID      []byte     `json:",omitempty"`
	Size          int64      `json:",omitempty"`
	Time          *time.Time `json:",omitempty"`
	DiskPath      string     `json:",omitempty"`
}

// maxRequestLine bounds one request's JSON (a few hundred bytes in
// practice): a runaway line is a protocol error, not an allocation.
const maxRequestLine = 64 << 10

// errProtocol marks input that does not follow the protocol; the program
// stops, as the go command does on a malformed response.
var errProtocol = errors.New("GOCACHEPROG protocol error")

// readRequest reads the next request, skipping blank lines; io.EOF at the
// end of the input.
func readRequest(r *bufio.Reader) (request, error) {
	for {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) || len(line) > maxRequestLine {
			return request{}, fmt.Errorf("%w: request line too long", errProtocol)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			if err != nil {
				return request{}, err
			}
			continue
		}
		var req request
		if jerr := json.Unmarshal(line, &req); jerr != nil {
			return request{}, fmt.Errorf("%w: %v", errProtocol, jerr)
		}
		return req, nil
	}
}

// body is a put's body as it arrives: a JSON string of standard base64
// (the only encoding the go command writes), decoded as it is read so
// large outputs stream to disk instead of through memory.
type body struct {
	q   *quoted
	dec io.Reader
	n   int64
}

// openBody skips to the opening quote of a body.
func openBody(r *bufio.Reader) (*body, error) {
	for {
		c, err := r.ReadByte()
		if err != nil {
			return nil, fmt.Errorf("%w: body: %v", errProtocol, err)
		}
		if c == '"' {
			break
		}
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return nil, fmt.Errorf("%w: body does not start with a string", errProtocol)
		}
	}
	q := &quoted{r: r}
	return &body{q: q, dec: base64.NewDecoder(base64.StdEncoding, q)}, nil
}

// Read reads decoded bytes.
func (b *body) Read(p []byte) (int, error) {
	n, err := b.dec.Read(p)
	b.n += int64(n)
	return n, err
}

// finish reads whatever the store left of the body, so the next request
// starts where it should, and fails unless the body was a terminated
// string of exactly size bytes. Its error means the input cannot be
// followed any more.
func (b *body) finish(size int64) error {
	if _, err := io.Copy(io.Discard, b); err != nil {
		return fmt.Errorf("%w: body: %v", errProtocol, err)
	}
	if !b.q.closed {
		return fmt.Errorf("%w: body string not terminated", errProtocol)
	}
	if b.n != size {
		return fmt.Errorf("%w: body is %d bytes, BodySize says %d", errProtocol, b.n, size)
	}
	return nil
}

// quoted reads the inside of a JSON string of base64 up to its closing
// quote (base64 has no quotes or escapes) and then reports io.EOF.
type quoted struct {
	r      *bufio.Reader
	closed bool
}

func (q *quoted) Read(p []byte) (int, error) {
	if q.closed {
		return 0, io.EOF
	}
	// Peek only what is buffered (after waiting for at least one byte):
	// asking for more would block on a go command that is waiting for our
	// answer before it writes anything else.
	if _, err := q.r.Peek(1); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return 0, err
	}
	buf, _ := q.r.Peek(min(len(p), q.r.Buffered()))
	if i := bytes.IndexByte(buf, '"'); i >= 0 {
		buf, q.closed = buf[:i], true
	}
	if bytes.IndexByte(buf, '\\') >= 0 {
		return 0, fmt.Errorf("%w: escape in body", errProtocol)
	}
	n := copy(p, buf)
	q.r.Discard(n)
	if q.closed {
		q.r.Discard(1) // the closing quote
		if n == 0 {
			return 0, io.EOF
		}
	}
	return n, nil
}
