package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// DefaultMaxSize is the largest blob a Store accepts unless WithMaxSize says
// otherwise: enough for a big workspace snapshot, small enough that one
// upload cannot fill a disk.
const DefaultMaxSize int64 = 4 << 30

const (
	blobDirName = "sha256"
	tmpDirName  = "tmp"
	// blobPerm marks stored blobs read-only: they are immutable by design.
	blobPerm = 0o444
	dirPerm  = 0o755
)

// Store is a content-addressed store of blobs as files under one root
// directory. It is safe for concurrent use, also by several processes sharing
// the same root.
type Store struct {
	root    string
	maxSize int64
}

// Option configures a Store.
type Option func(*Store)

// WithMaxSize sets the largest blob the Store accepts, in bytes.
func WithMaxSize(n int64) Option {
	return func(s *Store) { s.maxSize = n }
}

// NewStore opens (creating when needed) the store rooted at root and removes
// temp files left by writers that died.
func NewStore(root string, opts ...Option) (*Store, error) {
	s := &Store{root: root, maxSize: DefaultMaxSize}
	for _, o := range opts {
		o(s)
	}
	if s.maxSize < 0 {
		return nil, fmt.Errorf("blob store: max size must not be negative, got %d", s.maxSize)
	}
	if err := s.createDirs(); err != nil {
		return nil, err
	}
	if err := cleanTemp(s.tmpDir()); err != nil {
		return nil, err
	}
	return s, nil
}

// createDirs makes the root, blob and temp directories; fan-out directories
// appear with their first blob.
func (s *Store) createDirs() error {
	for _, dir := range []string{s.tmpDir(), filepath.Join(s.root, blobDirName)} {
		if err := os.MkdirAll(dir, dirPerm); err != nil {
			return fmt.Errorf("blob store: create %s: %w", dir, err)
		}
	}
	return nil
}

// ensureFanDir creates the fan-out directory dir when missing and makes the
// new entry durable before any blob is renamed into it.
func ensureFanDir(dir string) error {
	err := os.Mkdir(dir, dirPerm)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("blob store: create %s: %w", dir, err)
	}
	return syncDir(filepath.Dir(dir))
}

// Root returns the directory the store lives in.
func (s *Store) Root() string { return s.root }

// MaxSize returns the largest blob the store accepts, in bytes.
func (s *Store) MaxSize() int64 { return s.maxSize }

func (s *Store) tmpDir() string { return filepath.Join(s.root, tmpDirName) }

// path is where the blob with hash lives; hash must be valid.
func (s *Store) path(hash string) string {
	return filepath.Join(s.root, blobDirName, hash[:2], hash)
}

// Open returns the whole blob d for reading. The caller closes it.
func (s *Store) Open(ctx context.Context, d Digest) (io.ReadCloser, error) {
	f, _, err := s.openFile(ctx, d)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// OpenRange returns up to limit bytes of blob d starting at offset; limit 0
// means to the end. An offset beyond the size is ErrOutOfRange; an offset
// equal to the size yields an empty reader.
func (s *Store) OpenRange(ctx context.Context, d Digest, offset, limit int64) (io.ReadCloser, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	if err := checkRange(d, offset, limit); err != nil {
		return nil, err
	}
	f, size, err := s.openFile(ctx, d)
	if err != nil {
		return nil, err
	}
	n := size - offset
	if limit > 0 && limit < n {
		n = limit
	}
	return &sectionReadCloser{SectionReader: io.NewSectionReader(f, offset, n), f: f}, nil
}

// checkRange validates a read range against the digest's declared size.
func checkRange(d Digest, offset, limit int64) error {
	if offset < 0 || limit < 0 {
		return fmt.Errorf("%w: offset %d and limit %d must not be negative", ErrInvalidRange, offset, limit)
	}
	if offset > d.Size {
		return fmt.Errorf("%w: offset %d is beyond the end of %s (%d bytes)", ErrOutOfRange, offset, d, d.Size)
	}
	return nil
}

// openFile opens blob d and checks that the stored size matches the digest.
func (s *Store) openFile(ctx context.Context, d Digest) (*os.File, int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	if err := d.Validate(); err != nil {
		return nil, 0, err
	}
	f, err := os.Open(s.path(d.Hash))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, fmt.Errorf("%w: %s", ErrNotFound, d)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("blob store: open %s: %w", d, err)
	}
	info, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, 0, fmt.Errorf("blob store: stat %s: %w", d, err)
	}
	if info.Size() != d.Size {
		_ = f.Close()
		return nil, 0, sizeNotFound(d, info.Size())
	}
	return f, info.Size(), nil
}

// sizeNotFound explains a digest whose hash is stored with another size: the
// (hash, size) pair names the blob, so this one does not exist.
func sizeNotFound(d Digest, stored int64) error {
	return fmt.Errorf("%w: %s (a blob with this hash is stored with size %d)", ErrNotFound, d, stored)
}

// sectionReadCloser is a range of an open blob file.
type sectionReadCloser struct {
	*io.SectionReader
	f *os.File
}

// Close closes the underlying file.
func (r *sectionReadCloser) Close() error { return r.f.Close() }

// Stat reports whether blob d is stored and its size.
func (s *Store) Stat(ctx context.Context, d Digest) (size int64, found bool, err error) {
	if err := ctx.Err(); err != nil {
		return 0, false, err
	}
	if err := d.Validate(); err != nil {
		return 0, false, err
	}
	info, err := os.Stat(s.path(d.Hash))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("blob store: stat %s: %w", d, err)
	}
	if info.Size() != d.Size {
		return 0, false, nil
	}
	return info.Size(), true, nil
}

// Delete removes blob d; a missing blob is ErrNotFound. Readers that already
// opened it keep reading the old bytes.
func (s *Store) Delete(ctx context.Context, d Digest) error {
	if _, found, err := s.Stat(ctx, d); err != nil {
		return err
	} else if !found {
		return fmt.Errorf("%w: %s", ErrNotFound, d)
	}
	p := s.path(d.Hash)
	if err := os.Remove(p); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w: %s", ErrNotFound, d)
		}
		return fmt.Errorf("blob store: delete %s: %w", d, err)
	}
	return syncDir(filepath.Dir(p))
}

// BlobInfo describes one stored blob for Walk.
type BlobInfo struct {
	Digest Digest
	// ModTime is when the blob was last written (Put of an existing blob
	// refreshes it), so age-based retention keeps blobs still in use.
	ModTime time.Time
}

// Walk calls fn for every stored blob, in hash order. Files that do not look
// like blobs are skipped. An error from fn stops the walk and is returned.
func (s *Store) Walk(ctx context.Context, fn func(BlobInfo) error) error {
	fanDirs, err := os.ReadDir(filepath.Join(s.root, blobDirName))
	if err != nil {
		return fmt.Errorf("blob store: walk: %w", err)
	}
	for _, fan := range fanDirs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !fan.IsDir() {
			continue
		}
		dir := filepath.Join(s.root, blobDirName, fan.Name())
		entries, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("blob store: walk %s: %w", dir, err)
		}
		for _, e := range entries {
			if err := s.visit(dir, e, fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// visit hands one directory entry to fn when it is a blob.
func (s *Store) visit(dir string, e fs.DirEntry, fn func(BlobInfo) error) error {
	if !e.Type().IsRegular() || (Digest{Hash: e.Name()}).Validate() != nil || e.Name()[:2] != filepath.Base(dir) {
		return nil
	}
	info, err := e.Info()
	if errors.Is(err, fs.ErrNotExist) {
		return nil // deleted while walking
	}
	if err != nil {
		return fmt.Errorf("blob store: walk %s: %w", e.Name(), err)
	}
	return fn(BlobInfo{Digest: Digest{Hash: e.Name(), Size: info.Size()}, ModTime: info.ModTime()})
}

// syncDir fsyncs a directory so that renames and removals in it are durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("blob store: open dir %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("blob store: sync dir %s: %w", dir, err)
	}
	return nil
}
