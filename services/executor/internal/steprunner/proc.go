package steprunner

import (
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
)

// proc is one process the runner started, with the pipes it owns.
type proc struct {
	s       *server
	id      uint32
	pid     int
	started time.Time
	status  chan syscall.WaitStatus
	stdin   *stdinPipe
	outs    [2]*os.File // read ends of the stdout and stderr pipes
	pumps   sync.WaitGroup

	mu       sync.Mutex
	exited   bool
	killed   bool
	timedOut bool
}

// start starts process id as st asks, or reports at once why it cannot.
// It holds s.mu throughout, so that nothing starts once shutdown has begun
// (the lifetime may end the session while Start frames still arrive).
func (s *server) start(id uint32, st runnerproto.Start) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.ending:
		s.report(id, runnerproto.Exit{Code: -1, Error: "the runner is ending (the sandbox's deadline has passed)"})
		return
	case s.procs[id] != nil:
		s.report(id, runnerproto.Exit{Code: -1, Error: fmt.Sprintf("process %d is already running", id)})
		return
	}
	p, err := s.spawn(id, st)
	if err != nil {
		s.report(id, runnerproto.Exit{Code: -1, Error: err.Error()})
		return
	}
	s.procs[id] = p
	s.live.Add(1)
	go p.run(st)
}

// report sends process id's Exit frame, with the OOM-kill counter.
func (s *server) report(id uint32, ex runnerproto.Exit) {
	ex.OOMKills = readOOMKills(s.cfg.OOMFiles)
	_ = s.out.JSON(runnerproto.KindExit, id, ex) // the executor is gone: nobody to tell
}

// spawn forks and execs the command: as st's uid and gid with no
// supplementary groups, in a process group of its own, with exactly three
// open files (stdin from /dev/null or a pipe, stdout and stderr pipes the
// runner reads); every other descriptor of the runner is close-on-exec.
func (s *server) spawn(id uint32, st runnerproto.Start) (*proc, error) {
	if len(st.Argv) == 0 || st.Argv[0] == "" {
		return nil, fmt.Errorf("empty command")
	}
	if st.UID == 0 || st.GID == 0 {
		return nil, fmt.Errorf("refusing to run a process as uid %d gid %d: the runner never starts anything as root", st.UID, st.GID)
	}
	env := MergeEnv(s.cfg.Environ, st.Env)
	path, err := LookPath(st.Argv[0], env)
	if err != nil {
		return nil, err
	}
	p := &proc{s: s, id: id, status: make(chan syscall.WaitStatus, 1), stdin: &stdinPipe{}}
	pipes, err := newPipes(int(st.UID), int(st.GID), st.Stdin)
	if err != nil {
		return nil, err
	}
	// The child's ends are closed here once it has them; the runner's stay
	// with p.
	defer func() {
		for _, f := range pipes.w[1:] {
			_ = f.Close()
		}
		if pipes.r[0] != nil {
			_ = pipes.r[0].Close()
		}
	}()
	p.outs = [2]*os.File{pipes.r[1], pipes.r[2]}
	childIn := pipes.r[0]
	if st.Stdin {
		p.stdin.f = pipes.w[0]
	} else {
		if childIn, err = os.Open(os.DevNull); err != nil {
			p.closeAll()
			return nil, fmt.Errorf("opening %s: %w", os.DevNull, err)
		}
		defer childIn.Close()
	}
	attr := &syscall.ProcAttr{
		Dir: st.Dir, Env: env,
		// Fd() switches the child's ends to blocking mode, as a process
		// expects of its standard files.
		Files: []uintptr{childIn.Fd(), pipes.w[1].Fd(), pipes.w[2].Fd()},
		Sys:   &syscall.SysProcAttr{Setpgid: true, Credential: credential(st.UID, st.GID)},
	}
	p.started = time.Now()
	p.pid, err = s.rp.spawn(func() (int, error) { return syscall.ForkExec(path, st.Argv, attr) }, p.status)
	if err != nil {
		p.closeAll()
		return nil, fmt.Errorf("starting %s in %s: %w", st.Argv[0], st.Dir, err)
	}
	return p, nil
}

// credential is who the process runs as. A runner that is not root (only
// in tests) can only run processes as itself.
func credential(uid, gid uint32) *syscall.Credential {
	if os.Geteuid() != 0 {
		return &syscall.Credential{Uid: uid, Gid: gid, NoSetGroups: true}
	}
	return &syscall.Credential{Uid: uid, Gid: gid, Groups: []uint32{}}
}

// run follows the process to its end: output pumped as frames, the
// runner's own timeout, the exit status, the drain of what is left in the
// pipes, and the Exit frame.
func (p *proc) run(st runnerproto.Start) {
	defer p.s.live.Done()
	p.pumps.Add(2)
	go p.pump(p.outs[0], runnerproto.KindStdout)
	go p.pump(p.outs[1], runnerproto.KindStderr)
	var timer *time.Timer
	if st.TimeoutMillis > 0 {
		timer = time.AfterFunc(time.Duration(st.TimeoutMillis)*time.Millisecond, func() { p.kill(true) })
	}
	ws := <-p.status
	elapsed := time.Since(p.started)
	if timer != nil {
		timer.Stop()
	}
	p.mu.Lock()
	p.exited = true
	ex := runnerproto.Exit{Code: exitCode(ws), Killed: p.killed, TimedOut: p.timedOut, Millis: elapsed.Milliseconds()}
	p.mu.Unlock()
	if ws.Signaled() {
		ex.Signal = int(ws.Signal())
	}
	p.stdin.close()
	p.drain(drainTime(st, p.s.cfg.DefaultDrain))
	p.s.mu.Lock()
	delete(p.s.procs, p.id)
	p.s.mu.Unlock()
	p.s.report(p.id, ex)
}

// drainTime is how long output is read after the exit.
func drainTime(st runnerproto.Start, def time.Duration) time.Duration {
	if st.DrainMillis > 0 {
		return time.Duration(st.DrainMillis) * time.Millisecond
	}
	return def
}

// drain waits until the output pipes are at EOF (every process holding
// them has exited or closed them) or d has passed, then closes them: what
// a background process prints later is lost, as with `docker exec`.
func (p *proc) drain(d time.Duration) {
	done := make(chan struct{})
	go func() {
		p.pumps.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(d):
		for _, f := range p.outs {
			_ = f.SetReadDeadline(time.Now())
		}
		<-done
	}
	p.closeAll()
}

// pump frames what arrives on f until EOF. When the executor is gone the
// output is still read (and dropped), so the process never blocks on a
// full pipe.
func (p *proc) pump(f *os.File, kind runnerproto.Kind) {
	defer p.pumps.Done()
	buf := make([]byte, runnerproto.ChunkBytes)
	for {
		n, err := f.Read(buf)
		if n > 0 {
			_ = p.s.out.Frame(kind, p.id, buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// kill sends SIGKILL to the process's group (the command and everything
// it started that did not leave the group), once, and only while the
// command itself has not been reaped: after that its pid may be reused.
func (p *proc) kill(timeout bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.exited {
		return
	}
	if timeout {
		p.timedOut = true
	} else {
		p.killed = true
	}
	_ = syscall.Kill(-p.pid, syscall.SIGKILL)
}

func (p *proc) writeStdin(b []byte) { p.stdin.write(b) }
func (p *proc) closeStdin()         { p.stdin.close() }

// closeAll closes the runner's ends of the pipes.
func (p *proc) closeAll() {
	for _, f := range p.outs {
		if f != nil {
			_ = f.Close()
		}
	}
	if p.stdin != nil {
		p.stdin.close()
	}
}

// exitCode is the status as `docker exec` reports it: the exit status, or
// 128 plus the signal that killed the process.
func exitCode(ws syscall.WaitStatus) int {
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}

// stdinPipe is the runner's end of a process's input. Writes may block
// (the process reads slowly); close does not wait for them and unblocks
// them.
type stdinPipe struct {
	wmu  sync.Mutex
	f    *os.File
	once sync.Once
	dead bool
}

// write copies b to the process, dropping it once the pipe is closed or
// broken.
func (s *stdinPipe) write(b []byte) {
	if s.f == nil {
		return
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.dead {
		return
	}
	if _, err := s.f.Write(b); err != nil {
		s.dead = true
		s.close()
	}
}

// close closes the pipe (the process sees end of input).
func (s *stdinPipe) close() {
	if s.f == nil {
		return
	}
	s.once.Do(func() { _ = s.f.Close() })
}
