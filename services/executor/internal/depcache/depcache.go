// Package depcache keeps installed dependency trees (tar streams produced by
// a successful install step) in a local directory, keyed by the sandbox's
// cache key, and evicts them by age and total size.
//
// Entries are immutable files written to a temp name and renamed; a run
// restores a fresh copy of one into its own sandbox, so nothing a run does
// to its dependencies reaches the cache or the next run. Every entry
// records the sha256 and size of its tree when it is saved; Get verifies
// both before handing the tree out and evicts an entry that does not match
// (a truncated write, bit rot, a file edited on disk).
package depcache

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"time"
)

// ErrTooLarge marks an entry over the per-entry cap; it is not stored.
var ErrTooLarge = errors.New("dependency cache entry too large")

// ErrCorrupt marks an entry whose content does not match the digest
// recorded when it was saved; Get has already evicted it.
var ErrCorrupt = errors.New("dependency cache entry corrupt")

// ErrRejected marks a Put under a key whose entry failed to restore
// before: the same install would store the same unrestorable tree.
var ErrRejected = errors.New("dependency cache key rejected: its entry failed to restore earlier")

// maxRejected bounds the remembered rejected keys.
const maxRejected = 4096

// ErrBadKey marks a key that is not a lowercase hex digest.
var ErrBadKey = errors.New("malformed dependency cache key")

var keyRE = regexp.MustCompile(`^[0-9a-f]{16,128}$`)

const entrySuffix = ".tar"

// Cache is a directory of dependency trees.
type Cache struct {
	dir      string
	maxBytes int64
	maxEntry int64
	maxAge   time.Duration
	now      func() time.Time

	mu sync.Mutex // serializes eviction

	rmu      sync.Mutex
	rejected map[string]bool // keys whose entry failed to restore (this process)
}

// Open opens (creating) the cache in dir, keeping at most maxBytes in total,
// at most maxEntry per entry, and nothing unused for longer than maxAge.
func Open(dir string, maxBytes, maxEntry int64, maxAge time.Duration) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("dependency cache: %w", err)
	}
	c := &Cache{dir: dir, maxBytes: maxBytes, maxEntry: maxEntry, maxAge: maxAge, now: time.Now, rejected: map[string]bool{}}
	c.removeTemps()
	return c, c.Evict()
}

func (c *Cache) path(key string) string { return filepath.Join(c.dir, key+entrySuffix) }

// Get opens the entry for key, verified against the digest recorded when
// it was saved, and marks it used. ok is false when there is no entry; an
// entry that fails verification is evicted and reported as an ErrCorrupt
// error (the caller installs cold).
func (c *Cache) Get(key string) (rc io.ReadCloser, ok bool, err error) {
	if !keyRE.MatchString(key) {
		return nil, false, nil
	}
	f, err := os.Open(c.path(key))
	if err != nil {
		return nil, false, nil
	}
	body, err := verify(f)
	if err != nil {
		_ = f.Close()
		if rerr := c.remove(key); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return nil, false, err
	}
	now := c.now()
	_ = os.Chtimes(c.path(key), now, now) // mtime is the last use, for eviction
	return readCloser{body, f}, true, nil
}

// Remove evicts the entry for key because it failed to restore, and
// refuses to store that key again for the life of this process: the same
// install would produce the same unrestorable tree (one deeper than
// PATH_MAX), and every later run would pay a failed restore. No entry is
// not an error.
func (c *Cache) Remove(key string) error {
	if !keyRE.MatchString(key) {
		return fmt.Errorf("%w: %q", ErrBadKey, key)
	}
	c.rmu.Lock()
	if len(c.rejected) >= maxRejected {
		clear(c.rejected)
	}
	c.rejected[key] = true
	c.rmu.Unlock()
	return c.remove(key)
}

// remove deletes the entry file for key.
func (c *Cache) remove(key string) error {
	if err := os.Remove(c.path(key)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("dependency cache: %w", err)
	}
	return nil
}

// Put stores r under key (read to EOF); on any error, including an entry
// over the per-entry cap, nothing is kept.
func (c *Cache) Put(key string, r io.Reader) (err error) {
	if !keyRE.MatchString(key) {
		return fmt.Errorf("%w: %q", ErrBadKey, key)
	}
	c.rmu.Lock()
	rejected := c.rejected[key]
	c.rmu.Unlock()
	if rejected {
		return ErrRejected
	}
	tmp, err := os.CreateTemp(c.dir, "tmp-*")
	if err != nil {
		return fmt.Errorf("dependency cache: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(make([]byte, headerLen)); err != nil { // the header is written last
		return fmt.Errorf("dependency cache: %w", err)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(r, c.maxEntry+1))
	switch {
	case err != nil:
		return fmt.Errorf("dependency cache: %w", err)
	case n > c.maxEntry:
		// Give up without draining: the producer's stream is closed by
		// the caller (a 1 TiB sparse file must not be read to its end).
		return fmt.Errorf("%w: more than %d bytes", ErrTooLarge, c.maxEntry)
	}
	if _, err = tmp.WriteAt(header(hex.EncodeToString(h.Sum(nil)), n), 0); err != nil {
		return fmt.Errorf("dependency cache: %w", err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("dependency cache: %w", err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("dependency cache: %w", err)
	}
	if err = os.Rename(tmp.Name(), c.path(key)); err != nil {
		return fmt.Errorf("dependency cache: %w", err)
	}
	now := c.now()
	_ = os.Chtimes(c.path(key), now, now)
	return c.Evict()
}

// entry is one stored tree.
type entry struct {
	path string
	size int64
	used time.Time
}

// Evict removes entries unused for longer than maxAge, then the least
// recently used ones until the total fits in maxBytes.
func (c *Cache) Evict() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	list, err := c.entries()
	if err != nil {
		return err
	}
	slices.SortFunc(list, func(a, b entry) int { return b.used.Compare(a.used) }) // newest first
	var total int64
	var errs []error
	for _, e := range list {
		if c.now().Sub(e.used) > c.maxAge || total+e.size > c.maxBytes {
			if err := os.Remove(e.path); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
			}
			continue
		}
		total += e.size
	}
	return errors.Join(errs...)
}

// Size returns the total size of the stored entries.
func (c *Cache) Size() (int64, error) {
	list, err := c.entries()
	var total int64
	for _, e := range list {
		total += e.size
	}
	return total, err
}

func (c *Cache) entries() ([]entry, error) {
	des, err := os.ReadDir(c.dir)
	if err != nil {
		return nil, fmt.Errorf("dependency cache: %w", err)
	}
	var out []entry
	for _, de := range des {
		if filepath.Ext(de.Name()) != entrySuffix {
			continue
		}
		info, err := de.Info()
		if err != nil {
			continue // removed meanwhile
		}
		out = append(out, entry{path: filepath.Join(c.dir, de.Name()), size: info.Size(), used: info.ModTime()})
	}
	return out, nil
}

// removeTemps deletes temp files left by a process that died mid-Put.
func (c *Cache) removeTemps() {
	matches, _ := filepath.Glob(filepath.Join(c.dir, "tmp-*"))
	for _, m := range matches {
		if info, err := os.Stat(m); err == nil && c.now().Sub(info.ModTime()) > time.Hour {
			_ = os.Remove(m)
		}
	}
}
