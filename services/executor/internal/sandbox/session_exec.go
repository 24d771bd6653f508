package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
)

// execResult is how a process ended.
type execResult struct {
	code int
	// oomKills is the memory cgroup's OOM-kill counter read right after
	// the process (the runner reports it), -1 when unknown.
	oomKills int64
	// timedOut: the runner's own deadline killed the process (the
	// executor's deadline normally comes first).
	timedOut bool
}

// startFailedCode is the exit code of a process that could not start, as
// the engine reports it for a failed `docker exec`.
const startFailedCode = 126

// exec runs one process through the runner with the semantics of
// Runtime.Exec: output goes to spec's writers (never after exec returns),
// stdin is streamed in and closed, and when ctx ends exec returns promptly
// with ctx's error (after asking the runner to kill the process group; the
// caller still decides whether to destroy the container).
func (s *session) exec(ctx context.Context, spec ExecSpec) (execResult, error) {
	fail := execResult{code: -1, oomKills: -1}
	uid, gid, err := parseUser(spec.User)
	if err != nil {
		return fail, err
	}
	if err := ctx.Err(); err != nil {
		return fail, err
	}
	p := &sessionProc{stdout: spec.Stdout, stderr: spec.Stderr, exit: make(chan runnerproto.Exit, 1), writeFailed: make(chan error, 1)}
	s.mu.Lock()
	if s.err != nil {
		s.mu.Unlock()
		return fail, fmt.Errorf("%w: %w", errRunnerEnded, s.err)
	}
	s.next++
	id := s.next
	s.procs[id] = p
	s.mu.Unlock()
	defer p.detach()

	st := runnerproto.Start{Argv: spec.Cmd, Dir: spec.WorkDir, Env: spec.Env, UID: uid, GID: gid, Stdin: spec.Stdin != nil}
	if dl, ok := ctx.Deadline(); ok {
		st.TimeoutMillis = max(1, time.Until(dl.Add(runnerTimeoutSlack)).Milliseconds())
	}
	if err := s.w.JSON(runnerproto.KindStart, id, st); err != nil {
		s.forget(id)
		return fail, fmt.Errorf("%w: sending the start: %w", errRunnerEnded, err)
	}
	var feed *stdinFeed
	if spec.Stdin != nil {
		feed = s.feed(id, spec.Stdin)
		defer feed.stop()
	}
	select {
	case ex := <-p.exit:
		return s.result(ex, feed, spec.Stderr)
	case <-s.dead:
		return fail, s.endErr()
	case err := <-p.writeFailed:
		// Like a `docker exec` whose output copy fails: stop here (and,
		// unlike it, stop the process too).
		go s.kill(id)
		return fail, fmt.Errorf("exec output: %w", err)
	case <-feedFailed(feed):
		// The input broke (a snapshot entry failed validation): the
		// process must not take a partial input for a complete one.
		go s.kill(id)
		return fail, fmt.Errorf("exec stdin: %w", feed.err())
	case <-ctx.Done():
		go s.kill(id)
		select { // let what was on its way arrive (a prompt before a hang)
		case <-p.exit:
		case <-s.dead:
		case <-time.After(killGrace):
		}
		return fail, ctx.Err()
	}
}

// result turns the runner's report into what Exec callers expect.
func (s *session) result(ex runnerproto.Exit, feed *stdinFeed, stderr io.Writer) (execResult, error) {
	res := execResult{code: ex.Code, oomKills: ex.OOMKills, timedOut: ex.TimedOut}
	if feed != nil {
		feed.stop()
		if err := feed.err(); err != nil && !errors.Is(err, io.ErrClosedPipe) {
			return res, fmt.Errorf("exec stdin: %w", err)
		}
	}
	if ex.Error != "" {
		// Like a `docker exec` that cannot start: 126, and why.
		if stderr != nil {
			_, _ = fmt.Fprintf(stderr, "greenlight-runner: %s\n", ex.Error)
		}
		res.code = startFailedCode
	}
	return res, nil
}

// kill asks the runner to kill process id's group.
func (s *session) kill(id uint32) { _ = s.w.Frame(runnerproto.KindKill, id, nil) }

// forget drops a process that never started.
func (s *session) forget(id uint32) {
	s.mu.Lock()
	delete(s.procs, id)
	s.mu.Unlock()
}

// endErr says why the session cannot run anything any more.
func (s *session) endErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Errorf("%w: %w", errRunnerEnded, s.err)
}

// stdinFeed copies a process's input into Stdin frames.
type stdinFeed struct {
	stopped atomic.Bool
	failed  chan struct{}
	done    chan struct{}
	e       atomic.Pointer[error]
}

// feed starts copying r to process id, ending with CloseStdin.
func (s *session) feed(id uint32, r io.Reader) *stdinFeed {
	f := &stdinFeed{failed: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(f.done)
		buf := make([]byte, runnerproto.ChunkBytes)
		for !f.stopped.Load() {
			n, err := r.Read(buf)
			if n > 0 && !f.stopped.Load() {
				if werr := s.w.Frame(runnerproto.KindStdin, id, buf[:n]); werr != nil {
					f.setErr(werr)
					return
				}
			}
			if err == io.EOF {
				_ = s.w.Frame(runnerproto.KindCloseStdin, id, nil)
				return
			}
			if err != nil {
				f.setErr(err)
				close(f.failed)
				return
			}
		}
	}()
	return f
}

// stop makes the feed read no more input; it returns once the feed is not
// inside a read or write, or after a short while if it is stuck in one
// (then it stops at its next check, and the caller's context ending or the
// container's removal unblocks it).
func (f *stdinFeed) stop() {
	f.stopped.Store(true)
	select {
	case <-f.done:
	case <-time.After(killGrace):
	}
}

func (f *stdinFeed) setErr(err error) { f.e.Store(&err) }

// err is why the feed failed, nil if it did not.
func (f *stdinFeed) err() error {
	if p := f.e.Load(); p != nil {
		return *p
	}
	return nil
}

// feedFailed is f's failure channel; nil (never ready) without a feed.
func feedFailed(f *stdinFeed) <-chan struct{} {
	if f == nil {
		return nil
	}
	return f.failed
}
