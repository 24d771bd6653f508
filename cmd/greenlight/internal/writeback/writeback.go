// Package writeback writes the outcome of a repair run back to the user's
// directory: the files that differ between the run's original snapshot and
// its final one. It never writes anywhere else (every path goes through an
// os.Root for the directory), refuses symlinks, and checks the final
// snapshot with the same rules the executor applies to any snapshot.
package writeback

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/workspace"
)

// ErrUnsupported marks a change writeback will not make (a symlink, a
// file replaced by a directory).
var ErrUnsupported = errors.New("unsupported change")

// Change is one path written or removed.
type Change struct {
	// Path is slash-separated, relative to the directory.
	Path string
	// Op is "add", "modify" or "delete".
	Op string
}

// file is a regular file of a snapshot.
type file struct {
	sum  [sha256.Size]byte
	exec bool
	data []byte // kept only for files of the final snapshot
}

// snapshotFiles reads a snapshot tar (validated on the way) into its
// regular files and the set of its symlinks and directories.
func snapshotFiles(r io.Reader, keep bool) (map[string]file, map[string]byte, error) {
	files, other := map[string]file{}, map[string]byte{}
	tr := tar.NewReader(workspace.NewValidatingReader(r, workspace.Limits{}))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, other, nil
		}
		if err != nil {
			return nil, nil, fmt.Errorf("read snapshot: %w", err)
		}
		name := strings.TrimSuffix(path.Clean(h.Name), "/")
		if h.Typeflag != tar.TypeReg {
			other[name] = h.Typeflag
			continue
		}
		var buf bytes.Buffer
		if _, err := io.Copy(&buf, tr); err != nil {
			return nil, nil, fmt.Errorf("read snapshot: %s: %w", name, err)
		}
		f := file{sum: sha256.Sum256(buf.Bytes()), exec: h.Mode&0o111 != 0}
		if keep {
			f.data = buf.Bytes()
		}
		files[name] = f
	}
}

// Diff compares two snapshots and returns the changes, sorted by path,
// with the final snapshot's files.
func Diff(original, final io.Reader) ([]Change, map[string]file, error) {
	before, _, err := snapshotFiles(original, false)
	if err != nil {
		return nil, nil, fmt.Errorf("original %w", err)
	}
	after, afterOther, err := snapshotFiles(final, true)
	if err != nil {
		return nil, nil, fmt.Errorf("final %w", err)
	}
	var changes []Change
	for name, f := range after {
		old, ok := before[name]
		switch {
		case !ok:
			changes = append(changes, Change{Path: name, Op: "add"})
		case old.sum != f.sum || old.exec != f.exec:
			changes = append(changes, Change{Path: name, Op: "modify"})
		}
	}
	for name := range before {
		if _, ok := after[name]; ok {
			continue
		}
		if t, ok := afterOther[name]; ok {
			return nil, nil, fmt.Errorf("%w: %s became a %s", ErrUnsupported, name, typeName(t))
		}
		changes = append(changes, Change{Path: name, Op: "delete"})
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	return changes, after, nil
}

// Apply writes the changes between original and final into dir, all or
// nothing: every new content is first written and fsynced to a temporary
// file beside its target, then the originals are moved aside and the new
// files renamed into place; if any step fails, every original is put back
// (and created files and directories removed), so the tree is exactly as
// before. Nothing outside dir can be touched.
func Apply(ctx context.Context, dir string, original, final io.Reader) ([]Change, error) {
	changes, files, err := Diff(original, final)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("write back: %w", err)
	}
	defer root.Close()
	t := &txn{root: root}
	if err := t.run(ctx, changes, files); err != nil {
		return nil, fmt.Errorf("write back: %w; the directory is unchanged", err)
	}
	return changes, nil
}

// typeName names a tar entry type.
func typeName(t byte) string {
	switch t {
	case tar.TypeDir:
		return "directory"
	case tar.TypeSymlink:
		return "symlink"
	}
	return fmt.Sprintf("tar type %q", t)
}
