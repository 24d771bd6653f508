package steprunner

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// reaper collects every child of the runner: the processes it started
// (whose statuses go to whoever waits for them) and the orphans reparented
// to it as a subreaper (just reaped). One loop calls wait4(-1) without
// blocking whenever SIGCHLD arrives, so no thread sits in a blocking wait.
type reaper struct {
	mu      sync.Mutex
	waiting map[int]chan<- syscall.WaitStatus
	sig     chan os.Signal
	done    chan struct{}
	stopped chan struct{}
}

// reapSafetyTick reaps even if a SIGCHLD was somehow missed.
const reapSafetyTick = 500 * time.Millisecond

func startReaper() *reaper {
	r := &reaper{
		waiting: map[int]chan<- syscall.WaitStatus{},
		sig:     make(chan os.Signal, 1),
		done:    make(chan struct{}),
		stopped: make(chan struct{}),
	}
	signal.Notify(r.sig, syscall.SIGCHLD)
	go r.loop()
	return r
}

// spawn runs fork (which returns a child's pid) so that the child's exit
// status is sent to ch even if it exits at once.
func (r *reaper) spawn(fork func() (int, error), ch chan<- syscall.WaitStatus) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	pid, err := fork()
	if err == nil {
		r.waiting[pid] = ch
	}
	return pid, err
}

func (r *reaper) loop() {
	defer close(r.stopped)
	tick := time.NewTicker(reapSafetyTick)
	defer tick.Stop()
	for {
		r.reapAll()
		select {
		case <-r.done:
			return
		case <-r.sig:
		case <-tick.C:
		}
	}
}

// reapAll reaps every child that has exited.
func (r *reaper) reapAll() {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || pid <= 0 {
			return
		}
		r.mu.Lock()
		ch := r.waiting[pid]
		delete(r.waiting, pid)
		r.mu.Unlock()
		if ch != nil {
			ch <- ws // buffered: never blocks
		}
	}
}

// stop ends the loop.
func (r *reaper) stop() {
	signal.Stop(r.sig)
	close(r.done)
	<-r.stopped
}
