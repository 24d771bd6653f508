package gocache

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Serve speaks the GOCACHEPROG protocol on in and out until a close
// request or the end of in. Requests are answered one at a time, in order:
// a get is a few system calls (and a hash of at most VerifyMax bytes), and
// answering each in its own goroutine was measured to cost more in
// scheduling than it saved. A failed get is a miss and a failed put an
// answer with Err; only input that breaks the protocol, or output that
// cannot be written, ends Serve with an error. debug, when not nil, gets a
// line for every entry passed over and every failed put.
func Serve(in io.Reader, out io.Writer, s *Store, debug io.Writer) error {
	r := bufio.NewReaderSize(in, 64<<10)
	w := &responder{w: bufio.NewWriter(out)}
	if err := w.send(response{KnownCommands: []string{cmdGet, cmdPut, cmdClose}}); err != nil {
		return err
	}
	for {
		req, err := readRequest(r)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		var res response
		switch req.Command {
		case cmdGet:
			res = s.get(req, debug)
		case cmdPut:
			if res, err = s.put(req, r, debug); err != nil {
				return err
			}
		case cmdClose:
			return w.send(response{ID: req.ID})
		default:
			res = response{ID: req.ID, Err: fmt.Sprintf("unknown command %q", req.Command)}
		}
		if err := w.send(res); err != nil {
			return err
		}
	}
}

// get answers a get request: a hit, or a miss.
func (s *Store) get(req request, debug io.Writer) response {
	action, ok := toID(req.ActionID)
	if !ok {
		return response{ID: req.ID, Miss: true}
	}
	h, ok := s.Get(action, debug)
	if !ok {
		return response{ID: req.ID, Miss: true}
	}
	t := h.time
	return response{ID: req.ID, OutputID: h.output[:], Size: h.size, Time: &t, DiskPath: h.path}
}

// put answers a put request after reading its body; the error is for
// input that breaks the protocol.
func (s *Store) put(req request, r *bufio.Reader, debug io.Writer) (response, error) {
	var b io.Reader = bytes.NewReader(nil)
	var bd *body
	if req.BodySize < 0 {
		return response{}, fmt.Errorf("%w: negative BodySize", errProtocol)
	}
	if req.BodySize > 0 {
		var err error
		if bd, err = openBody(r); err != nil {
			return response{}, err
		}
		b = bd
	}
	action, okA := toID(req.ActionID)
	output, okO := toID(req.OutputID)
	var path string
	err := errors.New("put needs a 32-byte ActionID and OutputID")
	if okA && okO {
		path, err = s.Put(action, output, req.BodySize, b)
	}
	if bd != nil {
		if ferr := bd.finish(req.BodySize); ferr != nil {
			return response{}, ferr
		}
	}
	if err != nil {
		logf(debug, "put %x: %v", req.ActionID, err)
		return response{ID: req.ID, Err: err.Error()}, nil
	}
	return response{ID: req.ID, DiskPath: path}, nil
}

// toID converts a protocol ID, reporting whether it has the right size.
func toID(b []byte) (id [hashSize]byte, ok bool) {
	return id, copy(id[:], b) == hashSize && len(b) == hashSize
}

// responder writes responses, one JSON object a line.
type responder struct {
	w *bufio.Writer
}

// send writes res and flushes it: the go command waits for it.
func (r *responder) send(res response) error {
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	if _, err := r.w.Write(append(b, '\n')); err != nil {
		return err
	}
	return r.w.Flush()
}

// logf writes one debug line when debugging is on.
func logf(debug io.Writer, format string, args ...any) {
	if debug != nil {
		fmt.Fprintf(debug, "greenlight-gocache: "+format+"\n", args...)
	}
}
