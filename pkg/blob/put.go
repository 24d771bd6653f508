package blob

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// copyBufSize is the chunk size of the write path: large enough that syscall
// overhead vanishes next to hashing, small enough to pool.
const copyBufSize = 256 << 10

var copyBufs = sync.Pool{New: func() any { b := make([]byte, copyBufSize); return &b }}

// Put stores the bytes of r and returns their digest. A blob larger than the
// store's maximum is ErrTooLarge; reading stops as soon as that is known.
func (s *Store) Put(ctx context.Context, r io.Reader) (Digest, error) {
	d, _, err := s.put(ctx, nil, r)
	return d, err
}

// PutVerified stores the bytes of r only if they match want; a different hash
// or size is ErrDigestMismatch and nothing is stored. When the blob already
// exists r is not read at all.
func (s *Store) PutVerified(ctx context.Context, want Digest, r io.Reader) (Digest, error) {
	d, _, err := s.putVerified(ctx, want, r)
	return d, err
}

// PutFile stores the file at path.
func (s *Store) PutFile(ctx context.Context, path string) (Digest, error) {
	f, err := os.Open(path)
	if err != nil {
		return Digest{}, fmt.Errorf("blob store: %w", err)
	}
	defer f.Close()
	return s.Put(ctx, f)
}

// putVerified is PutVerified that also reports whether the blob already existed.
func (s *Store) putVerified(ctx context.Context, want Digest, r io.Reader) (Digest, bool, error) {
	if err := want.Validate(); err != nil {
		return Digest{}, false, err
	}
	if want.Size > s.maxSize {
		return Digest{}, false, fmt.Errorf("%w: declared size %d bytes exceeds the limit of %d bytes",
			ErrTooLarge, want.Size, s.maxSize)
	}
	if _, found, err := s.Stat(ctx, want); err != nil || found {
		if found {
			s.touch(want)
		}
		return want, found, err
	}
	return s.put(ctx, &want, r)
}

// put streams r into a locked temp file while hashing, checks the result
// against want (when given) and renames it into place. The temp file is
// removed on every failure, so nothing partial ever appears under a digest.
func (s *Store) put(ctx context.Context, want *Digest, r io.Reader) (d Digest, existed bool, err error) {
	tmp, err := createTemp(s.tmpDir())
	if err != nil {
		return Digest{}, false, err
	}
	defer func() {
		if err != nil {
			tmp.discard()
		}
	}()
	limit := s.maxSize
	if want != nil {
		limit = want.Size
	}
	got, over, err := copyHashed(ctx, tmp.f, r, limit)
	if err != nil {
		return Digest{}, false, err
	}
	if err := checkWritten(want, got, over, s.maxSize); err != nil {
		return Digest{}, false, err
	}
	existed, err = s.commit(tmp, got)
	return got, existed, err
}

// checkWritten turns what was read into ErrTooLarge or ErrDigestMismatch.
// over means more than the limit was offered and reading stopped there.
func checkWritten(want *Digest, got Digest, over bool, maxSize int64) error {
	switch {
	case want == nil && over:
		return fmt.Errorf("%w: more than the limit of %d bytes", ErrTooLarge, maxSize)
	case want == nil:
		return nil
	case over:
		return fmt.Errorf("%w: declared %s, received more than %d bytes", ErrDigestMismatch, want, want.Size)
	case got.Size != want.Size:
		return fmt.Errorf("%w: declared %s, received %s (size %d instead of %d)",
			ErrDigestMismatch, want, got, got.Size, want.Size)
	case got.Hash != want.Hash:
		return fmt.Errorf("%w: declared %s, received %s (same size, different content)", ErrDigestMismatch, want, got)
	}
	return nil
}

// copyHashed copies at most limit bytes of r into w, hashing them. over
// reports that r had more than limit bytes; it reads at most one chunk beyond.
func copyHashed(ctx context.Context, w io.Writer, r io.Reader, limit int64) (d Digest, over bool, err error) {
	bufp := copyBufs.Get().(*[]byte)
	defer copyBufs.Put(bufp)
	buf := *bufp
	h := sha256.New()
	var n int64
	for {
		if err := ctx.Err(); err != nil {
			return Digest{}, false, err
		}
		m, rerr := r.Read(buf)
		if int64(m) > limit-n {
			return Digest{}, true, nil
		}
		if m > 0 {
			h.Write(buf[:m])
			if _, err := w.Write(buf[:m]); err != nil {
				return Digest{}, false, fmt.Errorf("blob store: write temp file: %w", err)
			}
			n += int64(m)
		}
		if errors.Is(rerr, io.EOF) {
			return Digest{Hash: hex.EncodeToString(h.Sum(nil)), Size: n}, false, nil
		}
		if rerr != nil {
			return Digest{}, false, fmt.Errorf("blob store: read input: %w", rerr)
		}
	}
}

// commit makes the temp file durable and visible as blob d. If another writer
// got there first the temp file is dropped and existed is true.
func (s *Store) commit(tmp *tempFile, d Digest) (existed bool, err error) {
	if err := tmp.f.Chmod(blobPerm); err != nil {
		return false, fmt.Errorf("blob store: chmod temp file: %w", err)
	}
	if err := tmp.f.Sync(); err != nil {
		return false, fmt.Errorf("blob store: sync temp file: %w", err)
	}
	dst := s.path(d.Hash)
	if err := ensureFanDir(filepath.Dir(dst)); err != nil {
		return false, err
	}
	if _, err := os.Lstat(dst); err == nil {
		tmp.discard()
		s.touch(d)
		return true, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("blob store: stat %s: %w", d, err)
	}
	// Rename while the temp file is still open and locked, so that a cleaner
	// in another process can never take it away between close and rename.
	// Two writers racing here both rename identical bytes: still correct.
	if err := os.Rename(tmp.f.Name(), dst); err != nil {
		return false, fmt.Errorf("blob store: commit %s: %w", d, err)
	}
	if err := tmp.f.Close(); err != nil {
		return false, fmt.Errorf("blob store: close %s: %w", d, err)
	}
	return false, syncDir(filepath.Dir(dst))
}

// touch refreshes the modification time of an existing blob so age-based
// retention sees that it is still wanted. Best effort: a failure only makes
// the blob look older.
func (s *Store) touch(d Digest) {
	now := time.Now()
	_ = os.Chtimes(s.path(d.Hash), now, now)
}
