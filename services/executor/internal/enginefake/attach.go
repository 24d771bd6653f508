package enginefake

import (
	"context"
	"fmt"
	"io"
	"sync"
)

// attachment joins the executor to a container's main process: in
// carries what the executor writes (the process's stdin), out what the
// process writes (its stdout).
type attachment struct {
	inR    *io.PipeReader
	inW    *io.PipeWriter
	outR   *io.PipeReader
	outW   *io.PipeWriter
	stderr io.Writer
	once   sync.Once
}

// Attach connects to the standard streams of a created container's main
// process (its spec has OpenStdin), once.
func (e *Engine) Attach(ctx context.Context, id string, stderr io.Writer) (io.ReadWriteCloser, error) {
	if err := e.enter(ctx, OpAttach, id, ""); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	c, err := e.lookup(id)
	switch {
	case err != nil:
		return nil, err
	case !c.spec.OpenStdin:
		return nil, fmt.Errorf("enginefake: container %s was not created with an open stdin", shortID(id))
	case c.attach != nil:
		return nil, fmt.Errorf("enginefake: container %s is already attached", shortID(id))
	case c.state != StateCreated:
		return nil, fmt.Errorf("enginefake: container %s is %s: attach before start", shortID(id), c.state)
	}
	if stderr == nil {
		stderr = io.Discard
	}
	a := &attachment{stderr: stderr}
	a.inR, a.inW = io.Pipe()
	a.outR, a.outW = io.Pipe()
	c.attach = a
	return conn{a}, nil
}

// end is the main process's end: its output ends and its input is
// closed.
func (a *attachment) end() {
	a.once.Do(func() {
		_ = a.outW.Close()
		_ = a.inR.CloseWithError(io.ErrClosedPipe)
	})
}

// conn is the executor's side of an attachment. Closing it closes the main
// process's stdin and stops reading its output, as closing the engine's
// hijacked connection does.
type conn struct{ a *attachment }

func (c conn) Read(b []byte) (int, error)  { return c.a.outR.Read(b) }
func (c conn) Write(b []byte) (int, error) { return c.a.inW.Write(b) }

func (c conn) Close() error {
	_ = c.a.inW.Close()
	return c.a.outR.CloseWithError(io.ErrClosedPipe)
}
