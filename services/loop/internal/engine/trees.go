package engine

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/workspace"
)

// maxParseTreeBytes is the largest snapshot a Verify run unpacks just to
// help the parser resolve paths; larger ones are parsed without it. A Fix
// run always unpacks the snapshot it asks a patch for (for code windows).
const maxParseTreeBytes = 64 << 20

// trees unpacks a run's snapshots on demand into one private temporary
// directory, each snapshot once, and removes them all at the end of the
// run. The unpacked trees are read-only inputs for parsing and locating.
type trees struct {
	blobs Blobs
	lim   workspace.Limits
	root  string
	dirs  map[string]string
}

func newTrees(blobs Blobs, lim workspace.Limits) *trees {
	return &trees{blobs: blobs, lim: lim, dirs: map[string]string{}}
}

// fs returns the unpacked tree of snapshot d.
func (t *trees) fs(ctx context.Context, d *glv1.Digest) (fs.FS, error) {
	if dir, ok := t.dirs[d.GetHash()]; ok {
		return os.DirFS(dir), nil
	}
	if t.root == "" {
		root, err := os.MkdirTemp("", "greenlight-loop-tree-*")
		if err != nil {
			return nil, fmt.Errorf("unpack snapshot: %w", err)
		}
		t.root = root
	}
	bd, err := blob.DigestFromProto(d)
	if err != nil {
		return nil, fmt.Errorf("unpack snapshot: %w", err)
	}
	rc, err := t.blobs.Open(ctx, bd)
	if err != nil {
		return nil, fmt.Errorf("unpack snapshot %s: %w", bd, err)
	}
	defer rc.Close()
	dir := filepath.Join(t.root, d.GetHash()[:16])
	if _, err := workspace.Unpack(ctx, rc, dir, t.lim); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("unpack snapshot %s: %w", bd, err)
	}
	t.dirs[d.GetHash()] = dir
	return os.DirFS(dir), nil
}

// close removes every unpacked tree. Directories are made writable first:
// a tar may carry read-only ones, which would keep their files.
func (t *trees) close() {
	if t.root == "" {
		return
	}
	_ = filepath.WalkDir(t.root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o700)
		}
		return nil
	})
	_ = os.RemoveAll(t.root)
}
