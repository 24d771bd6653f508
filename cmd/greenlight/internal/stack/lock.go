package stack

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/greenlight-dev/greenlight/pkg/config"
)

// runStoreFile is the loop's run database under its data directory
// (loopsvc keeps the name unexported; it is part of the on-disk layout).
const runStoreFile = "runs.db"

// ErrLocked means another process (usually `greenlight serve`) holds the
// data directory's run database.
var ErrLocked = errors.New("data directory in use")

// LockedError names the data directory another process holds and says
// what to do instead.
type LockedError struct {
	Home string
}

// Error is the one-line explanation the CLI prints.
func (e *LockedError) Error() string {
	return fmt.Sprintf("another greenlight (serve) uses %s: pass --addr %s or set GREENLIGHT_HOME",
		e.Home, config.DefaultGatewayAddr)
}

// Unwrap makes errors.Is(err, ErrLocked) work.
func (e *LockedError) Unwrap() error { return ErrLocked }

// probeLock reports a *LockedError when another process holds the run
// database of home. bbolt locks the file with flock(LOCK_EX); taking and
// at once releasing a non-blocking lock of our own tells whether someone
// holds it, without the store's multi-second open timeout.
func probeLock(home string) error {
	f, err := os.Open(filepath.Join(home, runStoreFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("run database: %w", err)
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return &LockedError{Home: home}
	}
	if err != nil {
		return nil // a filesystem without flock: let the store decide
	}
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
