//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package blob

import (
	"os"
	"time"
)

// tryLock is a no-op where flock is unavailable.
func tryLock(*os.File) (bool, error) { return true, nil }

// isStale falls back to age: without locks a live writer cannot be told from
// a dead one, so only old temp files are removed.
func isStale(f *os.File) (bool, error) {
	info, err := f.Stat()
	if err != nil {
		return false, err
	}
	return time.Since(info.ModTime()) > staleAge, nil
}

// staleAge is how old a temp file must be before it counts as abandoned on
// platforms without file locks.
const staleAge = 24 * time.Hour
