// Package depcache keeps installed dependency trees (tar streams produced by
// a successful install step) in a local directory, keyed by the sandbox's
// cache key, and evicts them by age and total size.
//
// Entries are immutable files written to a temp name and renamed; a run
// restores a fresh copy of one into its own sandbox, so nothing a run does
// to its dependencies reaches the cache or the next run.
package depcache

import (
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
}

// Open opens (creating) the cache in dir, keeping at most maxBytes in total,
// at most maxEntry per entry, and nothing unused for longer than maxAge.
func Open(dir string, maxBytes, maxEntry int64, maxAge time.Duration) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("dependency cache: %w", err)
	}
	c := &Cache{dir: dir, maxBytes: maxBytes, maxEntry: maxEntry, maxAge: maxAge, now: time.Now}
	c.removeTemps()
	return c, c.Evict()
}

func (c *Cache) path(key string) string { return filepath.Join(c.dir, key+entrySuffix) }

// Get opens the entry for key and marks it used; false when there is none.
func (c *Cache) Get(key string) (io.ReadCloser, bool) {
	if !keyRE.MatchString(key) {
		return nil, false
	}
	f, err := os.Open(c.path(key))
	if err != nil {
		return nil, false
	}
	now := c.now()
	_ = os.Chtimes(c.path(key), now, now) // mtime is the last use, for eviction
	return f, true
}

// Put stores r under key (read to EOF); on any error, including an entry
// over the per-entry cap, nothing is kept.
func (c *Cache) Put(key string, r io.Reader) (err error) {
	if !keyRE.MatchString(key) {
		return fmt.Errorf("%w: %q", ErrBadKey, key)
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
	n, err := io.Copy(tmp, io.LimitReader(r, c.maxEntry+1))
	switch {
	case err != nil:
		return fmt.Errorf("dependency cache: %w", err)
	case n > c.maxEntry:
		// Give up without draining: the producer's stream is closed by
		// the caller (a 1 TiB sparse file must not be read to its end).
		return fmt.Errorf("%w: more than %d bytes", ErrTooLarge, c.maxEntry)
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
