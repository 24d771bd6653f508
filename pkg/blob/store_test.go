package blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// roundTripSizes covers empty, tiny, around the chunk size and several chunks.
var roundTripSizes = []int{0, 1, 4095, copyBufSize - 1, copyBufSize, copyBufSize + 1, 3*copyBufSize + 17}

func TestStoreRoundTrip(t *testing.T) {
	s := newTestStore(t)
	ctx := testContext(t)
	for _, n := range roundTripSizes {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			data := randomBytes(n, uint64(n))
			d, err := s.Put(ctx, bytes.NewReader(data))
			if err != nil {
				t.Fatalf("Put: %v", err)
			}
			if want := DigestOf(data); d != want {
				t.Fatalf("Put digest = %v, want %v", d, want)
			}
			assertContent(t, s, d, data)
			if info, err := os.Stat(filepath.Join(s.Root(), "sha256", d.Hash[:2], d.Hash)); err != nil || info.Mode().Perm() != blobPerm {
				t.Fatalf("blob file = %v, %v; want mode %o at the fan-out path", info, err, blobPerm)
			}
		})
	}
	if got := tempFiles(t, s); len(got) != 0 {
		t.Errorf("temp files left: %v", got)
	}
}

// assertContent checks Stat and Open of d against data.
func assertContent(t *testing.T, b blobs, d Digest, data []byte) {
	t.Helper()
	ctx := testContext(t)
	size, found, err := b.Stat(ctx, d)
	if err != nil || !found || size != int64(len(data)) {
		t.Fatalf("Stat = %d, %v, %v; want %d, true, nil", size, found, err, len(data))
	}
	rc, err := b.Open(ctx, d)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer rc.Close()
	got, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("read %d bytes differing from the %d written", len(got), len(data))
	}
}

func TestStorePutVerified(t *testing.T) {
	data := []byte("the quick brown fox")
	good := DigestOf(data)
	tests := []struct {
		name    string
		want    Digest
		body    []byte
		wantErr error
		msg     string
	}{
		{"match", good, data, nil, ""},
		{"hash differs", Digest{Hash: DigestOf([]byte("the quick brown cat")).Hash, Size: good.Size}, data, ErrDigestMismatch, "same size, different content"},
		{"fewer bytes", good, data[:10], ErrDigestMismatch, "size 10 instead of 19"},
		{"more bytes", good, append(append([]byte{}, data...), '!'), ErrDigestMismatch, "received more than 19 bytes"},
		{"invalid digest", Digest{Hash: "nope", Size: 1}, data, ErrInvalidDigest, "64 lowercase hex"},
		{"over the cap", Digest{Hash: good.Hash, Size: 1 << 20}, data, ErrTooLarge, "exceeds the limit of 1000 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t, WithMaxSize(1000))
			d, err := s.PutVerified(testContext(t), tt.want, bytes.NewReader(tt.body))
			if tt.wantErr == nil {
				if err != nil || d != good {
					t.Fatalf("PutVerified = %v, %v; want %v", d, err, good)
				}
				assertContent(t, s, good, data)
				return
			}
			if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("PutVerified error = %v, want %v containing %q", err, tt.wantErr, tt.msg)
			}
			assertEmpty(t, s)
		})
	}
}

func TestStorePutVerifiedMismatchNamesBothDigests(t *testing.T) {
	s := newTestStore(t)
	declared := DigestOf([]byte("0123456789"))
	received := DigestOf([]byte("0123456789ab"))
	_, err := s.PutVerified(testContext(t), Digest{Hash: declared.Hash, Size: 12}, strings.NewReader("0123456789ab"))
	want := fmt.Sprintf("digest mismatch: declared sha256:%s/12, received %s", declared.Hash, received)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error = %v, want prefix %q", err, want)
	}
}

func TestStoreMaxSize(t *testing.T) {
	tests := []struct {
		name    string
		size    int
		wantErr error
	}{
		{"at the cap", 1000, nil},
		{"one over", 1001, ErrTooLarge},
		{"far over", 10 * copyBufSize, ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t, WithMaxSize(1000))
			r := &countingReader{r: bytes.NewReader(randomBytes(tt.size, 7))}
			_, err := s.Put(testContext(t), r)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Put = %v, want %v", err, tt.wantErr)
			}
			if tt.wantErr == nil {
				return
			}
			// Reading stops at the first chunk that crosses the cap.
			if r.n > 1000+copyBufSize {
				t.Errorf("read %d bytes of an over-sized blob, want at most one chunk past the cap", r.n)
			}
			assertEmpty(t, s)
		})
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestStoreConcurrentSameDigest(t *testing.T) {
	s := newTestStore(t)
	data := randomBytes(3*copyBufSize+5, 99)
	want := DigestOf(data)
	const writers = 16
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for i := range writers {
		wg.Go(func() {
			var d Digest
			var err error
			if i%2 == 0 {
				d, err = s.Put(context.Background(), bytes.NewReader(data))
			} else {
				d, err = s.PutVerified(context.Background(), want, bytes.NewReader(data))
			}
			if err == nil && d != want {
				err = fmt.Errorf("digest %v, want %v", d, want)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	if got := storedBlobs(t, s); len(got) != 1 || got[0] != want {
		t.Fatalf("stored %v, want exactly %v", got, want)
	}
	if got := tempFiles(t, s); len(got) != 0 {
		t.Fatalf("temp files left: %v", got)
	}
	assertContent(t, s, want, data)
}

func TestStoreOpenRange(t *testing.T) {
	s := newTestStore(t)
	data := []byte("0123456789")
	d, err := s.Put(testContext(t), bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name          string
		offset, limit int64
		want          string
		wantErr       error
	}{
		{"whole", 0, 0, "0123456789", nil},
		{"from offset", 3, 0, "3456789", nil},
		{"offset and limit", 2, 3, "234", nil},
		{"limit past end", 8, 100, "89", nil},
		{"offset at end", 10, 0, "", nil},
		{"offset beyond end", 11, 0, "", ErrOutOfRange},
		{"negative offset", -1, 0, "", ErrInvalidRange},
		{"negative limit", 0, -1, "", ErrInvalidRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readRange(testContext(t), s, d, tt.offset, tt.limit)
			if !errors.Is(err, tt.wantErr) || got != tt.want {
				t.Fatalf("OpenRange(%d, %d) = %q, %v; want %q, %v", tt.offset, tt.limit, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// readRange reads a range through any implementation.
func readRange(ctx context.Context, b blobs, d Digest, offset, limit int64) (string, error) {
	rc, err := b.OpenRange(ctx, d, offset, limit)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	got, err := io.ReadAll(rc)
	return string(got), err
}

func TestStoreLookupErrors(t *testing.T) {
	s := newTestStore(t)
	ctx := testContext(t)
	stored, err := s.Put(ctx, strings.NewReader("stored"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		d       Digest
		wantErr error
	}{
		{"unknown", DigestOf([]byte("never stored")), ErrNotFound},
		{"known hash wrong size", Digest{Hash: stored.Hash, Size: stored.Size + 1}, ErrNotFound},
		{"malformed", Digest{Hash: "ABC", Size: 1}, ErrInvalidDigest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := s.Open(ctx, tt.d); !errors.Is(err, tt.wantErr) {
				t.Errorf("Open = %v, want %v", err, tt.wantErr)
			}
			_, found, err := s.Stat(ctx, tt.d)
			if found || (tt.wantErr == ErrInvalidDigest) != errors.Is(err, ErrInvalidDigest) {
				t.Errorf("Stat = found %v, %v", found, err)
			}
			if err := s.Delete(ctx, tt.d); !errors.Is(err, tt.wantErr) {
				t.Errorf("Delete = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

func TestStoreDeleteAndWalk(t *testing.T) {
	s := newTestStore(t)
	ctx := testContext(t)
	var want []Digest
	for i := range 5 {
		d, err := s.Put(ctx, bytes.NewReader(randomBytes(100+i, uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, d)
	}
	// Junk in the fan-out directories is not a blob.
	junkDir := filepath.Join(s.Root(), "sha256", "00")
	if err := os.MkdirAll(junkDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(junkDir, "junk"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Root(), "sha256", "stray"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := storedBlobs(t, s); len(got) != 5 {
		t.Fatalf("Walk found %v, want the 5 stored", got)
	}
	if err := s.Delete(ctx, want[0]); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, found, _ := s.Stat(ctx, want[0]); found {
		t.Fatal("deleted blob still found")
	}
	got := storedBlobs(t, s)
	if len(got) != 4 {
		t.Fatalf("after Delete Walk found %v, want 4", got)
	}
	for _, d := range got {
		if d == want[0] {
			t.Fatalf("Walk still lists deleted %v", d)
		}
	}
	stop := errors.New("stop")
	if err := s.Walk(ctx, func(BlobInfo) error { return stop }); !errors.Is(err, stop) {
		t.Fatalf("Walk error = %v, want the callback's", err)
	}
}

func TestStorePutExistingRefreshesModTime(t *testing.T) {
	s := newTestStore(t)
	ctx := testContext(t)
	d, err := s.Put(ctx, strings.NewReader("old"))
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-48 * time.Hour)
	p := filepath.Join(s.Root(), "sha256", d.Hash[:2], d.Hash)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutVerified(ctx, d, strings.NewReader("old")); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(p)
	if err != nil || time.Since(info.ModTime()) > time.Hour {
		t.Fatalf("mod time after re-Put = %v, %v; want refreshed", info.ModTime(), err)
	}
}

// failingReader yields some bytes, then an error: a writer dying mid-write.
type failingReader struct {
	data []byte
	err  error
}

func (f *failingReader) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

func TestStoreReaderFailsMidWrite(t *testing.T) {
	full := randomBytes(2*copyBufSize, 5)
	boom := errors.New("connection reset")
	tests := []struct {
		name string
		put  func(s *Store, r io.Reader) error
	}{
		{"Put", func(s *Store, r io.Reader) error { _, err := s.Put(context.Background(), r); return err }},
		{"PutVerified", func(s *Store, r io.Reader) error {
			_, err := s.PutVerified(context.Background(), DigestOf(full), r)
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestStore(t)
			err := tt.put(s, &failingReader{data: full[:len(full)/2], err: boom})
			if !errors.Is(err, boom) {
				t.Fatalf("put error = %v, want the reader's", err)
			}
			for _, d := range []Digest{DigestOf(full), DigestOf(full[:len(full)/2])} {
				if _, found, _ := s.Stat(context.Background(), d); found {
					t.Errorf("partial blob visible as %v", d)
				}
			}
			assertEmpty(t, s)
		})
	}
}

func TestStoreCanceledContext(t *testing.T) {
	s := newTestStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Put(ctx, strings.NewReader("x")); !errors.Is(err, context.Canceled) {
		t.Fatalf("Put = %v, want context.Canceled", err)
	}
	assertEmpty(t, s)
}

func TestNewStoreCleansDeadWritersTempFiles(t *testing.T) {
	root := t.TempDir()
	s := newStoreAt(t, root)
	// A temp file nobody holds is what a dead writer leaves behind.
	stale := filepath.Join(root, "tmp", "put-123456")
	if err := os.WriteFile(stale, []byte("half a blob"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A live writer's temp file must survive a concurrent open.
	live, err := createTemp(s.tmpDir())
	if err != nil {
		t.Fatal(err)
	}
	defer live.discard()
	// Files that are not temp files are left alone.
	other := filepath.Join(root, "tmp", "README")
	if err := os.WriteFile(other, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	newStoreAt(t, root)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temp file still there (%v)", err)
	}
	if _, err := os.Stat(live.f.Name()); err != nil {
		t.Errorf("live writer's temp file was removed: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("unrelated file was removed: %v", err)
	}
}

func newStoreAt(t *testing.T, root string) *Store {
	t.Helper()
	s, err := NewStore(root)
	if err != nil {
		t.Fatalf("NewStore: %v", err)
	}
	return s
}

func TestPutFile(t *testing.T) {
	s := newTestStore(t)
	data := randomBytes(5000, 3)
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := s.PutFile(testContext(t), path)
	if err != nil || d != DigestOf(data) {
		t.Fatalf("PutFile = %v, %v", d, err)
	}
	if _, err := s.PutFile(testContext(t), filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("PutFile(missing) = %v, want os.ErrNotExist", err)
	}
}
