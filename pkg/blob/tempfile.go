package blob

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// tempPattern names temp files; cleanTemp only touches names that match it.
const tempPattern = "put-*"

// tempAttempts bounds retries when a cleaner removed a fresh temp file.
const tempAttempts = 5

// tempFile is an upload in progress, locked for as long as its writer lives.
type tempFile struct {
	f *os.File
}

// createTemp creates a temp file in dir and locks it, so that a Store opened
// concurrently (even in another process) knows its writer is alive.
func createTemp(dir string) (*tempFile, error) {
	for range tempAttempts {
		f, err := os.CreateTemp(dir, tempPattern)
		if err != nil {
			return nil, fmt.Errorf("blob store: create temp file: %w", err)
		}
		ok, err := lockOwned(f)
		if err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
			return nil, err
		}
		if ok {
			return &tempFile{f: f}, nil
		}
		// A cleaner got to the file between create and lock; start over.
		_ = f.Close()
	}
	return nil, fmt.Errorf("blob store: create temp file: lost the race to concurrent cleaners %d times", tempAttempts)
}

// lockOwned locks f and confirms its path still names it: a cleaner that
// locked and removed it between create and lock must not win.
func lockOwned(f *os.File) (bool, error) {
	locked, err := tryLock(f)
	if err != nil {
		return false, fmt.Errorf("blob store: lock temp file: %w", err)
	}
	if !locked {
		return false, nil
	}
	opened, err := f.Stat()
	if err != nil {
		return false, fmt.Errorf("blob store: stat temp file: %w", err)
	}
	named, err := os.Stat(f.Name())
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("blob store: stat temp file: %w", err)
	}
	return os.SameFile(opened, named), nil
}

// discard closes and removes the temp file; safe to call more than once and
// after the file was renamed away.
func (t *tempFile) discard() {
	_ = t.f.Close()
	_ = os.Remove(t.f.Name())
}

// cleanTemp removes temp files whose writer is gone: those it can lock.
// Files of live writers, in this process or another, stay.
func cleanTemp(dir string) error {
	names, err := filepath.Glob(filepath.Join(dir, tempPattern))
	if err != nil {
		return fmt.Errorf("blob store: list temp files: %w", err)
	}
	for _, name := range names {
		if err := cleanOne(name); err != nil {
			return err
		}
	}
	return nil
}

// cleanOne removes one temp file if no writer holds it.
func cleanOne(name string) error {
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("blob store: open temp file: %w", err)
	}
	defer f.Close()
	stale, err := isStale(f)
	if err != nil || !stale {
		return err
	}
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("blob store: remove stale temp file: %w", err)
	}
	return nil
}
