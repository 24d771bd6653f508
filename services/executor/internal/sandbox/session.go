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
	// runnerUser runs greenlight-runner: root, with the container's three
	// capabilities (runnerCaps); it starts nothing as root.
	runnerUser = "0:0"
	// sigkillCode is the exit status of a process killed by SIGKILL.
	sigkillCode = 128 + 9
)

// session is one greenlight-runner serving a box: one long-lived `docker
// exec` (as root) that starts every process of the run as the sandbox user
// and frames their output. Processes run through it like through Exec.
type session struct {
	w      *runnerproto.Writer
	stdin  *io.PipeWriter
	cancel context.CancelFunc
	// done is closed when the runner's exec has ended; dead when the
	// session can no longer run anything (err says why).
	done   chan struct{}
	dead   chan struct{}
	stderr lockedBuffer

	// sigkilled: the runner's exec ended with SIGKILL's status (set
	// before the session fails).
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

// startSession execs greenlight-runner in container id and waits for its
// hello (or for ctx to end). The exec lives until close (or the
// container's end), independent of ctx and of any one run.
func startSession(ctx context.Context, rt Runtime, id string) (*session, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	execCtx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{
		w: runnerproto.NewWriter(inW), stdin: inW, cancel: cancel,
		done: make(chan struct{}), dead: make(chan struct{}), procs: map[uint32]*sessionProc{},
	}
	s.stderr.max = 4 << 10
	go func() {
		defer close(s.done)
		code, err := rt.Exec(execCtx, id, ExecSpec{
			Cmd: []string{runnerproto.Path, "serve"}, User: runnerUser, WorkDir: "/",
			Stdin: frameInput{inR}, Stdout: outW, Stderr: &s.stderr,
		})
		_ = inR.Close()
		if err == nil {
			s.sigkilled.Store(code == sigkillCode)
			err = fmt.Errorf("it exited with code %d", code)
		}
		if msg := strings.TrimSpace(s.stderr.String()); msg != "" {
			err = fmt.Errorf("%w: %s", err, msg)
		}
		outW.CloseWithError(err)
	}()
	hello := make(chan error, 1)
	go s.read(runnerproto.NewReader(outR), hello)
	select {
	case err := <-hello:
		if err != nil {
			s.close()
			return nil, err
		}
		return s, nil
	case <-time.After(helloTimeout):
		s.close()
		return nil, fmt.Errorf("%w: no hello within %s", errRunnerEnded, helloTimeout)
	case <-ctx.Done():
		s.close()
		return nil, ctx.Err()
	}
}

// read dispatches the runner's frames until its output ends.
func (s *session) read(r *runnerproto.Reader, hello chan<- error) {
	err := s.readHello(r)
	hello <- err
	for err == nil {
		var f runnerproto.Frame
		if f, err = r.Next(); err == nil {
			err = s.dispatch(f)
		}
	}
	s.fail(err)
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

// fail ends the session: nothing more can run in it. Closing its input
// ends the runner (which kills what still runs), and canceling the exec
// releases the engine's connection.
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
	_ = s.stdin.CloseWithError(errRunnerEnded)
	s.cancel()
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

// close ends the runner (it kills what still runs) and the exec. It does
// not wait: wait does.
func (s *session) close() { s.fail(fmt.Errorf("the session was closed")) }

// wait blocks until the runner's exec has ended, at most d.
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

// frameInput is the runner's stdin as the engine reads it: idle between
// processes, so it lets Exec abort the read once the runner has gone.
type frameInput struct{ *io.PipeReader }

// AbortStdin implements StdinAborter.
func (f frameInput) AbortStdin() { _ = f.CloseWithError(errRunnerEnded) }

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
