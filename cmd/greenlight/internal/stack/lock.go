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
	// Owner is the holder as it recorded itself (nil: unknown).
	Owner *Owner
}

// Error is the one-line explanation the CLI prints: what holds the home
// and, for a serve, the address it really listens on.
func (e *LockedError) Error() string {
	o := e.Owner
	switch {
	case o != nil && o.Addr != "":
		return fmt.Sprintf("greenlight serve (pid %d) uses %s and listens on %s: pass --addr %s to run through it, or --home DIR for a separate data directory",
			o.PID, e.Home, o.Addr, o.Addr)
	case o != nil:
		return fmt.Sprintf("greenlight %s (pid %d) is using %s: wait for it to finish, or pass --home DIR for a separate data directory",
			o.Command, o.PID, e.Home)
	}
	return fmt.Sprintf("another greenlight process uses %s: pass --home DIR for a separate data directory, "+
		"or --addr of the greenlight serve that uses it (default %s)", e.Home, config.DefaultGatewayAddr)
}

// Unwrap makes errors.Is(err, ErrLocked) work.
func (e *LockedError) Unwrap() error { return ErrLocked }

// HasRunStore reports whether home already holds a run database: a home
// a command has used before (starting on it then creates nothing new).
func HasRunStore(home string) bool {
	_, err := os.Stat(filepath.Join(home, runStoreFile))
	return err == nil
}

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
		return &LockedError{Home: home, Owner: readOwner(home)}
	}
	if err != nil {
		return nil // a filesystem without flock: let the store decide
	}
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
