package enginefake

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/steprunner"
)

// drainWait is how long output is still read after a process exited while
// something it left behind holds its pipes (the engine's and the runner's
// grace, shortened).
const drainWait = time.Second

// hostProc is one process of a container, running on the host.
type hostProc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser // nil without input
	done  chan struct{}
	code  int
	// outErr is the error of an output writer (its reader gave up), set
	// before done is closed.
	outErr error

	mu     sync.Mutex
	killed bool
}

// procSpec is a process to start, in the container's paths.
type procSpec struct {
	argv  []string
	dir   string
	env   []string
	user  string
	stdin bool
	// runner: started by the container's runner, not by Exec.
	runner bool
}

// spawn starts ps in c with its output going to stdout and stderr, and
// records it. It fails when the container is not running, when the user
// is root, and when the command or its directory does not exist.
func (e *Engine) spawn(c *container, ps procSpec, stdout, stderr io.Writer) (*hostProc, error) {
	cred, err := credential(ps.user)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if c.removed || c.state != StateRunning {
		return nil, fmt.Errorf("enginefake: container %s is not running", shortID(c.id))
	}
	env := steprunner.MergeEnv(c.root.paths(c.spec.Env), c.root.paths(ps.env))
	if ps.dir == "" {
		// As the engine does: a process without a working directory of
		// its own starts in the container's (found by the conformance
		// suite: the fake used the test's).
		ps.dir = c.spec.WorkDir
	}
	argv, dir := c.root.argv(ps.argv), c.root.path(ps.dir)
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("enginefake: empty command")
	}
	path, err := steprunner.LookPath(argv[0], env)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("enginefake: chdir to cwd (%q) set in config.json failed: no such file or directory", ps.dir)
	}
	cmd := &exec.Cmd{Path: path, Args: argv, Dir: dir, Env: env, Stdout: stdout, Stderr: stderr, WaitDelay: drainWait,
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true, Credential: cred}}
	p := &hostProc{cmd: cmd, done: make(chan struct{})}
	if ps.stdin {
		if p.stdin, err = cmd.StdinPipe(); err != nil {
			return nil, fmt.Errorf("enginefake: %w", err)
		}
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("enginefake: starting %s: %w", ps.argv[0], err)
	}
	c.procs[p] = true
	e.rec.procs = append(e.rec.procs, Proc{Container: c.id, Runner: ps.runner, Argv: slices.Clone(ps.argv), Dir: ps.dir,
		Env: slices.Clone(ps.env), User: ps.user, Networks: slices.Sorted(maps.Keys(c.networks))})
	go p.reap(e, c)
	return p, nil
}

// reap waits for the process (and the drain of its output) and forgets
// it.
func (p *hostProc) reap(e *Engine, c *container) {
	err := p.cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) && !errors.Is(err, exec.ErrWaitDelay) {
		p.outErr = err
	}
	p.code = exitCode(p.cmd.ProcessState)
	e.mu.Lock()
	delete(c.procs, p)
	e.mu.Unlock()
	close(p.done)
}

// kill sends SIGKILL to the process's group.
func (p *hostProc) kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.done:
		return // its pid may be reused
	default:
	}
	p.killed = true
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
}

// wait waits for the process's end, at most d.
func (p *hostProc) wait(d time.Duration) {
	select {
	case <-p.done:
	case <-time.After(d):
	}
}

// exitCode is the status as the engine reports it: 128 plus the signal
// that killed the process.
func exitCode(st *os.ProcessState) int {
	if st == nil {
		return -1
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return st.ExitCode()
}

// credential is who a process runs as: the numeric uid:gid asked for when
// the test runs as root (never root itself: the host is not a sandbox),
// the test's own user otherwise.
func credential(user string) (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	a, b, _ := strings.Cut(user, ":")
	uid, err1 := strconv.ParseUint(a, 10, 32)
	gid, err2 := strconv.ParseUint(b, 10, 32)
	switch {
	case err1 != nil || err2 != nil:
		return nil, fmt.Errorf("enginefake: user %q is not a numeric uid:gid", user)
	case uid == 0 || gid == 0:
		return nil, fmt.Errorf("enginefake: refusing to run a process as root on the host (user %q)", user)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}, nil
}
