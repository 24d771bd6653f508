// Package snapshot packs a workspace directory into a snapshot tar and
// uploads it to the blob store. The tar is written to a temporary file
// first, so a directory that cannot be packed (missing, unreadable, over
// the size cap) fails before anything is sent and nothing is stored
// half-way; the user's tree is only ever read.
package snapshot

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/workspace"
)

// Sentinel errors of a workspace path that cannot be packed.
var (
	// ErrNoDir means the workspace directory does not exist.
	ErrNoDir = errors.New("no such directory")
	// ErrNotDir means the workspace path is not a directory.
	ErrNotDir = errors.New("not a directory")
)

// Packed is a workspace packed into a temporary tar file.
type Packed struct {
	// Dir is the absolute directory that was packed.
	Dir string
	// Path is the tar file; Remove deletes it.
	Path string
	// Digest names the tar in the blob store.
	Digest blob.Digest
	// Stats describe what was packed.
	Stats workspace.PackStats
}

// Pack packs dir (git-aware, see workspace.Pack) into a temporary file
// under tmpDir ("" for the system default), refusing a workspace whose
// files add up to more than maxBytes (0: workspace.DefaultMaxBytes).
func Pack(ctx context.Context, dir string, maxBytes int64, tmpDir string) (*Packed, error) {
	abs, err := checkDir(dir)
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(tmpDir, "greenlight-snapshot-*.tar")
	if err != nil {
		return nil, fmt.Errorf("temporary snapshot file: %w", err)
	}
	p := &Packed{Dir: abs, Path: f.Name()}
	lim := workspace.Limits{MaxBytes: maxBytes}
	if maxBytes > 0 && maxBytes < workspace.DefaultMaxFileBytes {
		lim.MaxFileBytes = maxBytes // one file cannot be over the whole cap
	}
	d, st, err := workspace.PackDigest(ctx, abs, f, workspace.PackOptions{Limits: lim})
	p.Stats = st
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		p.Remove()
		return nil, packError(dir, err)
	}
	p.Digest = blob.Digest{Hash: d.Hash, Size: d.Size}
	return p, nil
}

// checkDir resolves dir and makes sure it is a readable directory.
func checkDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("%s: %w", dir, err)
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("%s: %w", dir, ErrNoDir)
	case err != nil:
		return "", fmt.Errorf("%s: %w", dir, err)
	case !fi.IsDir():
		return "", fmt.Errorf("%s: %w", dir, ErrNotDir)
	}
	return abs, nil
}

// packError keeps the pack error on one line, naming the directory.
func packError(dir string, err error) error {
	var ee *workspace.EntryError
	if errors.As(err, &ee) {
		return fmt.Errorf("%s: %w", dir, err)
	}
	// Usually an *fs.PathError that names the file ("open /x/y: permission denied").
	return fmt.Errorf("%s: cannot pack: %w", dir, err)
}

// Remove deletes the tar file.
func (p *Packed) Remove() {
	if p != nil && p.Path != "" {
		_ = os.Remove(p.Path)
	}
}

// Blobs is where snapshots go: the BlobService client.
type Blobs interface {
	PutFile(ctx context.Context, path string) (blob.Digest, error)
}

// Upload sends the tar to the blob store (skipped when the store has it)
// and checks the digest it confirms.
func (p *Packed) Upload(ctx context.Context, blobs Blobs) error {
	d, err := blobs.PutFile(ctx, p.Path)
	if err != nil {
		return fmt.Errorf("upload snapshot: %w", err)
	}
	if d != p.Digest {
		return fmt.Errorf("upload snapshot: stored as %s, packed as %s", d, p.Digest)
	}
	return nil
}
