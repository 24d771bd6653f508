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
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case errors.Is(err, syscall.EINTR):
			continue
		default:
			return false, err
		}
	}
}

// isStale reports whether no live writer holds the temp file f.
func isStale(f *os.File) (bool, error) {
	return tryLock(f)
}
