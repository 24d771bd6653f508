//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package blob

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes an exclusive, non-blocking flock on f. The kernel drops it
// when the process dies, however it dies, which is what makes a SIGKILLed
// writer's temp file recognisable.
func tryLock(f *os.File) (bool, error) {
	raw, err := f.SyscallConn()
	if err != nil {
		return false, err
	}
	var lockErr error
	if err := raw.Control(func(fd uintptr) { lockErr = flockNB(int(fd)) }); err != nil {
		return false, err
	}
	if errors.Is(lockErr, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return lockErr == nil, lockErr
}

// flockNB is flock(LOCK_EX|LOCK_NB), retried when a signal interrupts it.
func flockNB(fd int) error {
	for {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// isStale reports whether no live writer holds the temp file f.
func isStale(f *os.File) (bool, error) {
	return tryLock(f)
}
