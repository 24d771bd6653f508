package depcache

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

func key(c byte) string { return strings.Repeat(string(c), 64) }

func TestPutGetEvict(t *testing.T) {
	dir := t.TempDir()
	c, err := Open(dir, 10+2*int64(headerLen), 6, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	c.now = func() time.Time { return now }
	for _, k := range []byte("abc") {
		if err := c.Put(key(k), strings.NewReader("12345")); err != nil {
			t.Fatal(err)
		}
		now = now.Add(time.Minute)
	}
	// 15 bytes over a 10-byte budget: the least recently used ("a") went.
	if _, ok, _ := c.Get(key('a')); ok {
		t.Errorf("the oldest entry survived eviction")
	}
	rc, ok, err := c.Get(key('c'))
	if !ok || err != nil {
		t.Fatalf("newest entry missing: %v", err)
	}
	b, _ := io.ReadAll(rc)
	rc.Close()
	if string(b) != "12345" {
		t.Errorf("got %q", b)
	}
	if err := c.Put(key('d'), strings.NewReader("1234567")); !errors.Is(err, ErrTooLarge) {
		t.Errorf("oversized Put: %v", err)
	}
	if _, ok, _ := c.Get(key('d')); ok {
		t.Errorf("an oversized entry was kept")
	}
	if err := c.Put("../x", strings.NewReader("1")); !errors.Is(err, ErrBadKey) {
		t.Errorf("bad key: %v", err)
	}
	now = now.Add(2 * time.Hour)
	if err := c.Evict(); err != nil {
		t.Fatal(err)
	}
	if n, _ := c.Size(); n != 0 {
		t.Errorf("%d bytes left after the max age", n)
	}
}

func TestFailedPutKeepsNothing(t *testing.T) {
	dir := t.TempDir()
	c, err := Open(dir, 1<<20, 1<<20, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("producer failed")
	if err := c.Put(key('e'), io.MultiReader(strings.NewReader("part"), errReader{boom})); !errors.Is(err, boom) {
		t.Errorf("Put = %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left %d files", len(entries))
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
