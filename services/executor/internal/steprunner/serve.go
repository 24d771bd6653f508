package steprunner

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
)

// Config tunes a server (tests shorten and redirect things).
type Config struct {
	// Environ is the base environment of every process (the container's).
	Environ []string
	// OOMFiles are read, in order, for the memory cgroup's "oom_kill N"
	// line.
	OOMFiles []string
	// DefaultDrain applies when a Start has no DrainMillis.
	DefaultDrain time.Duration
	// ShutdownWait bounds how long, at the end of input, the runner waits
	// for the processes it killed to be reported.
	ShutdownWait time.Duration
	// Threads is how many OS threads to create up front (see
	// prewarmThreads).
	Threads int
	// Lifetime, when positive, ends the session that long after it began
	// as the end of its input would: the runner is the sandbox's main
	// process, and this is the sandbox's deadline.
	Lifetime time.Duration
}

// DefaultConfig is the configuration of the real runner: cgroup v2 and v1
// counters, the exec's environment, the engine's drain grace.
func DefaultConfig() Config {
	return Config{
		Environ:      os.Environ(),
		OOMFiles:     []string{"/sys/fs/cgroup/memory.events", "/sys/fs/cgroup/memory/memory.oom_control"},
		DefaultDrain: 2 * time.Second,
		ShutdownWait: 5 * time.Second,
		Threads:      6,
	}
}

// server is one runner session.
type server struct {
	cfg Config
	out *runnerproto.Writer
	rp  *reaper

	mu    sync.Mutex
	procs map[uint32]*proc
	// ending: the session is over, nothing more starts (a Start read
	// after the lifetime ended it is refused).
	ending bool
	live   sync.WaitGroup
}

// Serve speaks the runner protocol: frames from in, frames to out, until
// in ends or cfg.Lifetime has passed. At the end of input or of its
// lifetime it kills what still runs, reports it, and returns nil; a
// protocol error kills everything too and is returned.
func Serve(in io.Reader, out io.Writer, cfg Config) error {
	if err := becomeSubreaper(); err != nil {
		return err
	}
	// Nothing running in the sandbox may trace or inspect the runner, even
	// under a uid it shares (it shares none).
	_ = setDumpable(false)
	closeOnExecAbove2()
	prewarmThreads(cfg.Threads)
	s := &server{cfg: cfg, out: runnerproto.NewWriter(out), procs: map[uint32]*proc{}}
	s.rp = startReaper()
	defer s.rp.stop()
	if err := s.out.JSON(runnerproto.KindHello, 0, runnerproto.Hello{Protocol: runnerproto.Version, PID: os.Getpid()}); err != nil {
		return fmt.Errorf("writing hello: %w", err)
	}
	looped := make(chan error, 1)
	go func() { looped <- s.loop(runnerproto.NewReader(in)) }()
	var expired <-chan time.Time
	if cfg.Lifetime > 0 {
		t := time.NewTimer(cfg.Lifetime)
		defer t.Stop()
		expired = t.C
	}
	var err error
	select {
	case err = <-looped:
	case <-expired:
		// The reading goroutine stays blocked on in: the process exits
		// when Serve returns.
		err = io.EOF
	}
	s.shutdown()
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// loop handles frames until the input ends or breaks the protocol.
func (s *server) loop(r *runnerproto.Reader) error {
	for {
		f, err := r.Next()
		if err != nil {
			return err
		}
		switch f.Kind {
		case runnerproto.KindStart:
			var st runnerproto.Start
			if err := f.Decode(&st); err != nil {
				return err
			}
			s.start(f.ID, st)
		case runnerproto.KindStdin:
			if p := s.proc(f.ID); p != nil {
				p.writeStdin(f.Payload)
			}
		case runnerproto.KindCloseStdin:
			if p := s.proc(f.ID); p != nil {
				p.closeStdin()
			}
		case runnerproto.KindKill:
			if p := s.proc(f.ID); p != nil {
				p.kill(false)
			}
		default:
			return fmt.Errorf("%w: %s frame sent to the runner", runnerproto.ErrMalformed, f.Kind)
		}
	}
}

// proc returns the running process id, nil when there is none.
func (s *server) proc(id uint32) *proc {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.procs[id]
}

// shutdown kills every running process group and waits (bounded) for
// their exits to be reported.
func (s *server) shutdown() {
	s.mu.Lock()
	s.ending = true
	for _, p := range s.procs {
		p.kill(false)
	}
	s.mu.Unlock()
	done := make(chan struct{})
	go func() {
		s.live.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(s.cfg.ShutdownWait):
	}
}

// becomeSubreaper makes orphaned descendants reparent to the runner.
func becomeSubreaper() error {
	const prSetChildSubreaper = 36
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		return fmt.Errorf("becoming a child subreaper: %w", errno)
	}
	return nil
}

// setDumpable sets the process's dumpable flag: when off, its /proc files
// belong to root and it cannot be ptraced by anyone without
// CAP_SYS_PTRACE.
func setDumpable(on bool) error {
	const prSetDumpable = 4
	v := uintptr(0)
	if on {
		v = 1
	}
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetDumpable, v, 0); errno != 0 {
		return errno
	}
	return nil
}

// closeOnExecAbove2 marks every descriptor the runner inherited above
// stderr close-on-exec, so that its processes get exactly the three it
// gives them whatever started the runner (the runtime's own descriptors
// are close-on-exec already).
func closeOnExecAbove2() {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			_, _, _ = syscall.RawSyscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETFD, syscall.FD_CLOEXEC)
		}
	}
}

// prewarmThreads makes the Go runtime create n OS threads now, which it
// then keeps idle and reuses. Every thread counts against the sandbox's
// pids limit, and the runtime treats a failed thread creation as fatal: a
// fork bomb in a step must not be able to crash the runner by exhausting
// pids just when it needs one more thread. (The runner's file descriptors
// are non-blocking, so it rarely needs more than these.)
func prewarmThreads(n int) {
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			ts := syscall.Timespec{Nsec: int64(5 * time.Millisecond)}
			_ = syscall.Nanosleep(&ts, nil) // a blocking syscall: its P moves to a new thread
		})
	}
	wg.Wait()
}
