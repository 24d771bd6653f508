package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
)

// errRunnerEnded marks a process whose greenlight-runner session ended
// (or broke the protocol) before the process was reported.
var errRunnerEnded = errors.New("the step runner ended")

const (
	// helloTimeout bounds the start of a runner session.
	helloTimeout = 15 * time.Second
	// killGrace is how long a process whose context ended may still take to
	// be reported (its output so far delivered) after the Kill frame.
	killGrace = 200 * time.Millisecond
	// runnerTimeoutSlack: the runner's own deadline for a process comes
	// this long after the executor's, which stays authoritative.
	runnerTimeoutSlack = time.Second
	// sigkillCode is the exit status of a process killed by SIGKILL (and
	// docker-init's, when its child, the runner, was).
	sigkillCode = 128 + 9
	// exitWait bounds how long a session whose runner ended waits for the
	// engine to report the container's exit status.
	exitWait = 2 * time.Second
)

// session is one greenlight-runner serving a box: the container's main
// process, attached to before the container started, which starts every
// process of the run as the sandbox user and frames their output.
// Processes run through it like through Exec.
type session struct {
	w    *runnerproto.Writer
	conn io.Closer
	rt   Runtime
	id   string
	// hello gets the outcome of the runner's first frame (see ready).
	hello chan error
	// done is closed when the runner's output has ended; dead when the
	// session can no longer run anything (err says why).
	done   chan struct{}
	dead   chan struct{}
	stderr lockedBuffer

	// sigkilled: the runner (the container's main process) was killed by
	// SIGKILL (set before the session fails).
	sigkilled atomic.Bool

	mu    sync.Mutex
	procs map[uint32]*sessionProc
	next  uint32
	err   error
}

// sessionProc is one process of a session.
type sessionProc struct {
	mu       sync.Mutex
	stdout   io.Writer
	stderr   io.Writer
	detached bool
	exit     chan runnerproto.Exit
	// writeFailed gets the first error of an output writer: its reader
	// gave up, so the process is killed rather than drained to its end.
	writeFailed chan error
}

// openSession attaches to the runner that is container id's main process.
// The container must be created (with OpenStdin, see hardenedSpec) and not
// yet started, so that nothing the runner writes is lost; the caller then
// starts it and waits for the runner's hello with ready. The attachment
// lives until close or the container's end, independent of ctx: closing it
// ends the runner and so the container.
func openSession(ctx context.Context, rt Runtime, id string) (*session, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := &session{
		rt: rt, id: id, hello: make(chan error, 1),
		done: make(chan struct{}), dead: make(chan struct{}), procs: map[uint32]*sessionProc{},
	}
	s.stderr.max = 4 << 10
	conn, err := rt.Attach(ctx, id, &s.stderr)
	if err != nil {
		return nil, fmt.Errorf("attaching to greenlight-runner: %w", err)
	}
	s.w, s.conn = runnerproto.NewWriter(conn), conn
	go s.read(runnerproto.NewReader(conn))
	return s, nil
}

// ready waits for the runner's hello (or for ctx to end); on failure the
// session is closed, and with it the container's main process.
func (s *session) ready(ctx context.Context) error {
	select {
	case err := <-s.hello:
		if err != nil {
			s.close()
			return err
		}
		return nil
	case <-time.After(helloTimeout):
		s.close()
		return fmt.Errorf("%w: no hello within %s", errRunnerEnded, helloTimeout)
	case <-ctx.Done():
		s.close()
		return ctx.Err()
	}
}

// read dispatches the runner's frames until its output ends.
func (s *session) read(r *runnerproto.Reader) {
	err := s.readHello(r)
	s.hello <- err
	outputEnded := false
	for err == nil {
		var f runnerproto.Frame
		if f, err = r.Next(); err == nil {
			err = s.dispatch(f)
		} else {
			outputEnded = true
		}
	}
	s.fail(s.ended(err, outputEnded))
	close(s.done)
}

// ended completes why the session ended: when the runner's output ended
// and the session was not closed (then the container is being removed),
// the runner has exited, and with it the container, whose exit status
// says how (SIGKILL's: the OOM killer, see oomAfterFailure); then what the
// runner printed on stderr.
func (s *session) ended(err error, outputEnded bool) error {
	if errors.Is(err, io.EOF) {
		err = fmt.Errorf("its output ended")
	}
	if outputEnded && s.alive() {
		if code, ok := s.exitCode(); ok {
			s.sigkilled.Store(code == sigkillCode)
			err = fmt.Errorf("%w (it exited with code %d)", err, code)
		}
	}
	if msg := strings.TrimSpace(s.stderr.String()); msg != "" {
		err = fmt.Errorf("%w: %s", err, msg)
	}
	return err
}

// exitCode waits, briefly, for the engine to report the container stopped
// and returns its exit status.
func (s *session) exitCode() (int, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), exitWait)
	defer cancel()
	for {
		st, err := s.rt.State(ctx, s.id)
		if err != nil {
			return 0, false
		}
		if !st.Running {
			return st.ExitCode, true
		}
		select {
		case <-ctx.Done():
			return 0, false
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// readHello checks the runner's first frame.
func (s *session) readHello(r *runnerproto.Reader) error {
	f, err := r.Next()
	if err != nil {
		return fmt.Errorf("%w before its hello: %w", errRunnerEnded, err)
	}
	var h runnerproto.Hello
	if f.Kind != runnerproto.KindHello || f.Decode(&h) != nil || h.Protocol != runnerproto.Version {
		return fmt.Errorf("%w: it speaks another protocol (first frame %s %q, want version %d)",
			errRunnerEnded, f.Kind, f.Payload, runnerproto.Version)
	}
	return nil
}

// dispatch hands one frame to its process.
func (s *session) dispatch(f runnerproto.Frame) error {
	s.mu.Lock()
	p := s.procs[f.ID]
	if f.Kind == runnerproto.KindExit {
		delete(s.procs, f.ID)
	}
	s.mu.Unlock()
	switch f.Kind {
	case runnerproto.KindStdout, runnerproto.KindStderr:
		if p != nil {
			p.output(f.Kind, f.Payload)
		}
	case runnerproto.KindExit:
		var ex runnerproto.Exit
		if err := f.Decode(&ex); err != nil {
			return err
		}
		if p != nil {
			p.exit <- ex // buffered, and sent once: never blocks
		}
	default:
		return fmt.Errorf("%w: unexpected %s frame from the runner", runnerproto.ErrMalformed, f.Kind)
	}
	return nil
}

// fail ends the session: nothing more can run in it. Closing the
// attachment closes the runner's input, which ends the runner (it kills
// what still runs) and so the container.
func (s *session) fail(err error) {
	if errors.Is(err, io.EOF) {
		err = fmt.Errorf("its output ended")
	}
	s.mu.Lock()
	if s.err == nil {
		s.err = err
		close(s.dead)
	}
	s.mu.Unlock()
	_ = s.conn.Close()
}

// alive reports whether the session can still run processes.
func (s *session) alive() bool {
	select {
	case <-s.dead:
		return false
	default:
		return true
	}
}

// close ends the runner (it kills what still runs), and so the container.
// It does not wait: wait does.
func (s *session) close() { s.fail(fmt.Errorf("the session was closed")) }

// wait blocks until the runner's output has ended, at most d.
func (s *session) wait(d time.Duration) {
	select {
	case <-s.done:
	case <-time.After(d):
	}
}

// output writes a chunk of the process's output unless its caller has
// returned. A writer that fails (a reader that gave up) gets nothing more,
// and exec is told.
func (p *sessionProc) output(kind runnerproto.Kind, b []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w := p.stdout
	if kind == runnerproto.KindStderr {
		w = p.stderr
	}
	if p.detached || w == nil {
		return
	}
	if _, err := w.Write(b); err != nil {
		p.detached = true
		p.writeFailed <- err // buffered, sent at most once
	}
}

// detach stops every later write to the process's writers.
func (p *sessionProc) detach() {
	p.mu.Lock()
	p.detached = true
	p.mu.Unlock()
}

// parseUser parses a numeric "uid:gid".
func parseUser(u string) (uid, gid uint32, err error) {
	a, b, ok := strings.Cut(u, ":")
	x, err1 := strconv.ParseUint(a, 10, 32)
	y, err2 := strconv.ParseUint(b, 10, 32)
	if !ok || err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("user %q is not a numeric uid:gid", u)
	}
	return uint32(x), uint32(y), nil
}

// lockedBuffer keeps the first max bytes written, safely for concurrent
// use.
type lockedBuffer struct {
	mu  sync.Mutex
	buf capBuffer
	max int
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.max = l.max
	return l.buf.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.buf.String()
}
