package enginefake

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
)

// shutdownWait bounds how long a runner whose input ended waits for the
// processes it killed to be reported.
const shutdownWait = 5 * time.Second

// runner is the fake greenlight-runner: a container's main process,
// speaking runnerproto on its attachment and starting host processes.
type runner struct {
	e     *Engine
	c     *container
	a     *attachment
	hello int
	w     *runnerproto.Writer

	mu     sync.Mutex
	procs  map[uint32]*runnerProc
	ending bool
	live   sync.WaitGroup
}

// runnerProc is one process the runner started.
type runnerProc struct {
	p                *hostProc
	killed, timedOut atomic.Bool
}

// newRunner returns the runner of c; e.mu is held.
func newRunner(e *Engine, c *container, hello int) *runner {
	return &runner{e: e, c: c, a: c.attach, hello: hello, procs: map[uint32]*runnerProc{}}
}

// serve speaks the protocol until the attachment ends, then kills what
// still runs and stops the container. Without an attachment nothing ever
// reaches its stdin: it waits until the container is removed.
func (r *runner) serve() {
	if r.a == nil {
		return
	}
	r.w = runnerproto.NewWriter(r.a.outW)
	err := r.w.JSON(runnerproto.KindHello, 0, runnerproto.Hello{Protocol: r.hello, PID: os.Getpid()})
	if err == nil {
		err = r.loop(runnerproto.NewReader(r.a.inR))
	}
	r.shutdown()
	code := 0
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) {
		_, _ = fmt.Fprintf(r.a.stderr, "greenlight-runner: %v\n", err)
		code = 1
	}
	r.e.mu.Lock()
	r.c.exit(code, false)
	r.e.mu.Unlock()
}

// loop handles frames until the input ends or breaks the protocol.
func (r *runner) loop(rd *runnerproto.Reader) error {
	for {
		f, err := rd.Next()
		if err != nil {
			return err
		}
		switch f.Kind {
		case runnerproto.KindStart:
			var st runnerproto.Start
			if err := f.Decode(&st); err != nil {
				return err
			}
			r.start(f.ID, st)
		case runnerproto.KindStdin:
			if p := r.proc(f.ID); p != nil && p.p.stdin != nil {
				_, _ = p.p.stdin.Write(f.Payload)
			}
		case runnerproto.KindCloseStdin:
			if p := r.proc(f.ID); p != nil && p.p.stdin != nil {
				_ = p.p.stdin.Close()
			}
		case runnerproto.KindKill:
			if p := r.proc(f.ID); p != nil {
				p.killed.Store(true)
				p.p.kill()
			}
		default:
			return fmt.Errorf("%w: %s frame sent to the runner", runnerproto.ErrMalformed, f.Kind)
		}
	}
}

// proc returns running process id, nil when there is none.
func (r *runner) proc(id uint32) *runnerProc {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.procs[id]
}

// start starts process id, or reports at once why it cannot.
func (r *runner) start(id uint32, st runnerproto.Start) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fail := func(msg string) { r.report(id, runnerproto.Exit{Code: -1, Error: msg}) }
	switch {
	case r.ending:
		fail("the runner is ending (the sandbox's deadline has passed)")
		return
	case r.procs[id] != nil:
		fail(fmt.Sprintf("process %d is already running", id))
		return
	case st.UID == 0 || st.GID == 0:
		fail(fmt.Sprintf("refusing to run a process as uid %d gid %d: the runner never starts anything as root", st.UID, st.GID))
		return
	}
	ps := procSpec{argv: st.Argv, dir: st.Dir, env: st.Env, user: fmt.Sprintf("%d:%d", st.UID, st.GID), stdin: st.Stdin, runner: true}
	p, err := r.e.spawn(r.c, ps, frames{r.w, runnerproto.KindStdout, id}, frames{r.w, runnerproto.KindStderr, id})
	if err != nil {
		fail(err.Error())
		return
	}
	rp := &runnerProc{p: p}
	r.procs[id] = rp
	r.live.Add(1)
	go r.follow(id, rp, st)
}

// follow waits for process id (killing it at its timeout) and reports its
// exit with the container's OOM counter.
func (r *runner) follow(id uint32, rp *runnerProc, st runnerproto.Start) {
	defer r.live.Done()
	started := time.Now()
	if st.TimeoutMillis > 0 {
		t := time.AfterFunc(time.Duration(st.TimeoutMillis)*time.Millisecond, func() {
			rp.timedOut.Store(true)
			rp.p.kill()
		})
		defer t.Stop()
	}
	<-rp.p.done
	ex := runnerproto.Exit{Code: rp.p.code, Killed: rp.killed.Load(), TimedOut: rp.timedOut.Load(),
		Millis: time.Since(started).Milliseconds()}
	if ex.Code > 128 {
		ex.Signal = ex.Code - 128
	}
	r.mu.Lock()
	delete(r.procs, id)
	r.mu.Unlock()
	r.report(id, ex)
}

// report sends process id's Exit frame with the OOM counter.
func (r *runner) report(id uint32, ex runnerproto.Exit) {
	ex.OOMKills = r.c.root.oomKills()
	_ = r.w.JSON(runnerproto.KindExit, id, ex) // the executor is gone: nobody to tell
}

// shutdown kills every running process and waits (bounded) for their
// exits to be reported.
func (r *runner) shutdown() {
	r.mu.Lock()
	r.ending = true
	for _, p := range r.procs {
		p.p.kill()
	}
	r.mu.Unlock()
	done := make(chan struct{})
	go func() {
		r.live.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(shutdownWait):
	}
}

// frames writes a process's output as data frames; output nobody reads
// any more is dropped, so the process never blocks on it.
type frames struct {
	w    *runnerproto.Writer
	kind runnerproto.Kind
	id   uint32
}

func (f frames) Write(b []byte) (int, error) {
	for rest := b; len(rest) > 0; {
		n := min(len(rest), runnerproto.ChunkBytes)
		_ = f.w.Frame(f.kind, f.id, rest[:n])
		rest = rest[n:]
	}
	return len(b), nil
}
