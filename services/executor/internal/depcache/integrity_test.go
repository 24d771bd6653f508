package depcache

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// TestCorruptEntryEvicted: an entry edited, truncated or extended on disk
// after it was saved fails verification, is removed, and Get says so.
func TestCorruptEntryEvicted(t *testing.T) {
	cases := map[string]func(path string) error{
		"flipped byte": func(p string) error {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b[len(b)-1] ^= 1
			return os.WriteFile(p, b, 0o600)
		},
		"truncated": func(p string) error { return os.Truncate(p, int64(headerLen)+3) },
		"extended": func(p string) error {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.WriteString("evil")
			return err
		},
		"old format": func(p string) error { return os.WriteFile(p, []byte("raw tar bytes"), 0o600) },
	}
	for name, corrupt := range cases {
		t.Run(name, func(t *testing.T) {
			c, err := Open(t.TempDir(), 1<<20, 1<<20, time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Put(key('f'), strings.NewReader("dependency tree")); err != nil {
				t.Fatal(err)
			}
			if err := corrupt(c.path(key('f'))); err != nil {
				t.Fatal(err)
			}
			rc, ok, err := c.Get(key('f'))
			if ok || !errors.Is(err, ErrCorrupt) {
				if rc != nil {
					rc.Close()
				}
				t.Fatalf("Get of a corrupt entry: ok=%v err=%v", ok, err)
			}
			if _, err := os.Stat(c.path(key('f'))); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the corrupt entry was not evicted: %v", err)
			}
			if _, ok, err := c.Get(key('f')); ok || err != nil {
				t.Errorf("after eviction: ok=%v err=%v, want a plain miss", ok, err)
			}
		})
	}
}

// TestRemove evicts an entry by key.
func TestRemove(t *testing.T) {
	c, err := Open(t.TempDir(), 1<<20, 1<<20, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Put(key('a'), strings.NewReader("tree")); err != nil {
		t.Fatal(err)
	}
	rc, ok, err := c.Get(key('a'))
	if !ok || err != nil {
		t.Fatalf("Get: %v %v", ok, err)
	}
	b, _ := io.ReadAll(rc)
	rc.Close()
	if string(b) != "tree" {
		t.Errorf("read %q", b)
	}
	if err := c.Remove(key('a')); err != nil {
		t.Fatal(err)
	}
	if err := c.Remove(key('a')); err != nil {
		t.Errorf("removing a missing entry: %v", err)
	}
	if _, ok, _ := c.Get(key('a')); ok {
		t.Errorf("removed entry still served")
	}
	if err := c.Put(key('a'), strings.NewReader("tree")); !errors.Is(err, ErrRejected) {
		t.Errorf("Put after a failed restore: %v, want ErrRejected", err)
	}
	if err := c.Put(key('b'), strings.NewReader("tree")); err != nil {
		t.Errorf("Put of another key: %v", err)
	}
}
