package enginefake

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// Exit codes of an exec that could not start, as the engine reports them.
const (
	codeCannotRun = 126
	codeNotFound  = 127
)

// Exec runs a process in a running container with Runtime.Exec's
// semantics: a process that cannot start exits 126 (127 for a missing
// command) with the reason on stderr; a stdin that fails kills it and is
// an error; when ctx ends Exec returns ctx's error at once and the
// process runs on until Remove.
func (e *Engine) Exec(ctx context.Context, id string, spec sandbox.ExecSpec) (int, error) {
	if err := e.enter(ctx, OpExec, id, strings.Join(spec.Cmd, " ")); err != nil {
		return -1, err
	}
	e.mu.Lock()
	c, err := e.lookup(id)
	running := err == nil && c.state == StateRunning
	e.mu.Unlock()
	switch {
	case err != nil:
		return -1, err
	case !running:
		return -1, fmt.Errorf("enginefake: container %s is not running", shortID(id))
	}
	out, errOut := &sandbox.GatedWriter{W: spec.Stdout}, &sandbox.GatedWriter{W: spec.Stderr}
	defer out.Close()
	defer errOut.Close()
	ps := procSpec{argv: spec.Cmd, dir: spec.WorkDir, env: spec.Env, user: spec.User, stdin: spec.Stdin != nil}
	p, err := e.spawn(c, ps, out, errOut)
	if err != nil {
		return startFailure(err, errOut)
	}
	stdinErr := make(chan error, 1)
	if spec.Stdin != nil {
		go feed(p, spec.Stdin, stdinErr)
	}
	select {
	case <-p.done:
	case err := <-stdinErr:
		p.kill() // a partial input must not look complete
		<-p.done
		return -1, fmt.Errorf("exec stdin: %w", err)
	case <-ctx.Done():
		return -1, ctx.Err()
	}
	if p.outErr != nil {
		return -1, fmt.Errorf("exec output: %w", p.outErr)
	}
	if e.gone(c) {
		return -1, fmt.Errorf("%w: %s was removed while the process ran", sandbox.ErrContainerNotFound, shortID(id))
	}
	return p.code, nil
}

// startFailure reports a process that could not start like the engine:
// its status, and why on stderr. A container that is not running is an
// error.
func startFailure(err error, stderr io.Writer) (int, error) {
	if strings.Contains(err.Error(), "is not running") {
		return -1, err
	}
	_, _ = fmt.Fprintln(stderr, err.Error())
	if strings.Contains(err.Error(), "executable file not found") {
		return codeNotFound, nil
	}
	return codeCannotRun, nil
}

// feed copies r to the process's stdin and closes it; a read error is
// sent on failed (an input the process stopped reading is no error).
func feed(p *hostProc, r io.Reader, failed chan<- error) {
	_, err := io.Copy(p.stdin, markedReader{r})
	_ = p.stdin.Close()
	var pe *readError
	if errors.As(err, &pe) {
		failed <- pe.err
	}
}

// markedReader marks the errors of r as readErrors.
type markedReader struct{ r io.Reader }

func (m markedReader) Read(b []byte) (int, error) {
	n, err := m.r.Read(b)
	if err != nil && err != io.EOF {
		err = &readError{err: err}
	}
	return n, err
}

// gone says the container was removed.
func (e *Engine) gone(c *container) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return c.removed
}

// readError marks an error of the input reader (not of the pipe).
type readError struct{ err error }

func (r *readError) Error() string { return r.err.Error() }
