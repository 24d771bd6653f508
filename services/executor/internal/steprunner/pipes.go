package steprunner

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
)

// pipeSet is the three pipes of a process: [0] stdin (only with input), [1]
// stdout, [2] stderr; r and w are the read and write ends.
type pipeSet struct {
	r, w [3]*os.File
}

// close closes every end that is still open.
func (p *pipeSet) close() {
	for _, f := range append(p.r[:], p.w[:]...) {
		if f != nil {
			_ = f.Close()
		}
	}
}

// newPipes creates a process's pipes owned by uid and gid, as the engine
// does for `docker exec`: a pipe's inode belongs to whoever created it, and
// a process may only reopen its own stdout through /proc/self/fd/1 (what
// `echo > /dev/stdout` does) when the pipe is its own. The runner (root)
// switches one locked thread's filesystem uid and gid for the pipe2 calls
// (CAP_SETUID and CAP_SETGID allow it) and back; a thread that cannot be
// switched back is never reused (its goroutine exits locked, so the
// runtime ends the thread).
func newPipes(uid, gid int, stdin bool) (*pipeSet, error) {
	type result struct {
		p   *pipeSet
		err error
	}
	ch := make(chan result, 1)
	go func() {
		runtime.LockOSThread()
		p, err := pipesAs(uid, gid, stdin)
		if restoreFS() {
			runtime.UnlockOSThread()
		}
		ch <- result{p, err}
	}()
	r := <-ch
	return r.p, r.err
}

// pipesAs creates the pipes with this thread's fsuid and fsgid set to uid
// and gid (when the runner runs as root; otherwise they are its own).
func pipesAs(uid, gid int, stdin bool) (*pipeSet, error) {
	if os.Geteuid() == 0 {
		setfsgid(gid)
		setfsuid(uid)
	}
	p := &pipeSet{}
	for i := range 3 {
		if i == 0 && !stdin {
			continue
		}
		var err error
		if p.r[i], p.w[i], err = os.Pipe(); err != nil {
			p.close()
			return nil, fmt.Errorf("creating a pipe: %w", err)
		}
	}
	return p, nil
}

// restoreFS switches the thread's filesystem ids back to the process's
// own and reports whether it worked.
func restoreFS() bool {
	uid, gid := os.Geteuid(), os.Getegid()
	setfsuid(uid)
	setfsgid(gid)
	// setfsuid and setfsgid return the previous value: asking again with
	// the same id tells what is set now.
	return setfsuid(uid) == uid && setfsgid(gid) == gid
}

// setfsuid sets the calling thread's filesystem uid and returns the
// previous one (the system call never fails).
func setfsuid(uid int) int {
	r, _, _ := syscall.RawSyscall(syscall.SYS_SETFSUID, uintptr(uid), 0, 0)
	return int(r)
}

// setfsgid is setfsuid for the group.
func setfsgid(gid int) int {
	r, _, _ := syscall.RawSyscall(syscall.SYS_SETFSGID, uintptr(gid), 0, 0)
	return int(r)
}
