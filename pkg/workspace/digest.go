package workspace

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
)

// Digest identifies content by its sha256 (lowercase hex) and size, like the
// protobuf Digest{hash, size_bytes} of the blob store.
type Digest struct {
	Hash string
	Size int64
}

// String renders the digest as "sha256:<hex>/<size>".
func (d Digest) String() string { return fmt.Sprintf("sha256:%s/%d", d.Hash, d.Size) }

// DigestWriter hashes and counts what is written through it; a nil
// destination just digests.
type DigestWriter struct {
	w    io.Writer
	h    hash.Hash
	size int64
}

// NewDigestWriter returns a writer that forwards to w (when not nil) while
// computing the digest of everything written.
func NewDigestWriter(w io.Writer) *DigestWriter {
	return &DigestWriter{w: w, h: sha256.New()}
}

// Write implements io.Writer. Only bytes accepted by the destination are
// hashed, so the digest always matches what was really written.
func (d *DigestWriter) Write(p []byte) (int, error) {
	n := len(p)
	var err error
	if d.w != nil {
		n, err = d.w.Write(p)
	}
	d.h.Write(p[:n])
	d.size += int64(n)
	return n, err
}

// Digest returns the digest of what has been written so far.
func (d *DigestWriter) Digest() Digest {
	return Digest{Hash: hex.EncodeToString(d.h.Sum(nil)), Size: d.size}
}

// DigestReader returns the digest of everything r yields.
func DigestReader(r io.Reader) (Digest, error) {
	d := NewDigestWriter(nil)
	if _, err := io.Copy(d, r); err != nil {
		return Digest{}, fmt.Errorf("digest: %w", err)
	}
	return d.Digest(), nil
}

// PackDigest packs dir to w (which may be nil) and returns the digest of
// the tar it wrote, the snapshot's identity in the blob store.
func PackDigest(ctx context.Context, dir string, w io.Writer, opts PackOptions) (Digest, PackStats, error) {
	d := NewDigestWriter(w)
	st, err := Pack(ctx, dir, d, opts)
	if err != nil {
		return Digest{}, st, err
	}
	return d.Digest(), st, nil
}

// PackToFile packs dir into the file dst, written to a temporary file in the
// same directory, synced and renamed, so dst is either complete or absent.
func PackToFile(ctx context.Context, dir, dst string, opts PackOptions) (Digest, PackStats, error) {
	f, err := os.CreateTemp(filepath.Dir(dst), ".pack-*.tar")
	if err != nil {
		return Digest{}, PackStats{}, fmt.Errorf("pack: %w", err)
	}
	defer os.Remove(f.Name()) // no-op after the rename
	d, st, err := PackDigest(ctx, dir, f, opts)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), dst)
	}
	if err != nil {
		return Digest{}, st, fmt.Errorf("pack to %s: %w", dst, err)
	}
	return d, st, nil
}
