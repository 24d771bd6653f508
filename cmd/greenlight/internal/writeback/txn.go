package writeback

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
)

// txn applies a set of changes to a directory all-or-nothing: prepare
// stages every new content beside its target (nothing visible changes but
// new parent directories); commit moves originals aside and renames the
// staged files in; a failure anywhere undoes what was done, in reverse.
type txn struct {
	root *os.Root
	// staged holds the temporary file of each add/modify, by path.
	staged map[string]string
	// dirs are the directories prepare created, parents first.
	dirs []string
	// undo reverses each commit step done so far.
	undo []func() error
	// backups are the originals moved aside, removed once all is done.
	backups []string
}

// beforeRename runs before every rename of the commit; tests use it to
// make one fail.
var beforeRename = func(from, to string) error { return nil }

// run prepares and commits changes, rolling back on any error.
func (t *txn) run(ctx context.Context, changes []Change, files map[string]file) error {
	t.staged = map[string]string{}
	err := t.prepare(changes, files)
	if err == nil {
		err = ctx.Err()
	}
	if err == nil {
		err = t.commit(changes)
	}
	if err != nil {
		return errors.Join(err, t.rollback())
	}
	t.finish(changes)
	return nil
}

// prepare checks every target and writes every new content to a synced
// temporary file in the target's directory.
func (t *txn) prepare(changes []Change, files map[string]file) error {
	for _, c := range changes {
		fi, err := t.root.Lstat(c.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return fmt.Errorf("%s: %w", c.Path, err)
		case !fi.Mode().IsRegular():
			return fmt.Errorf("%w: %s is not a regular file in the directory", ErrUnsupported, c.Path)
		}
		if c.Op == "delete" {
			continue
		}
		if err := t.mkdirs(path.Dir(c.Path)); err != nil {
			return fmt.Errorf("%s: %w", c.Path, err)
		}
		tmp, err := t.stage(c.Path, files[c.Path])
		if err != nil {
			return fmt.Errorf("%s: %w", c.Path, err)
		}
		t.staged[c.Path] = tmp
	}
	return nil
}

// mkdirs creates the missing directories of dir, remembering them.
func (t *txn) mkdirs(dir string) error {
	if dir == "." {
		return nil
	}
	if err := t.mkdirs(path.Dir(dir)); err != nil {
		return err
	}
	fi, err := t.root.Lstat(dir)
	if err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("%w: %s is not a directory in the directory", ErrUnsupported, dir)
		}
		return nil
	}
	if err := t.root.Mkdir(dir, 0o755); err != nil {
		return err
	}
	t.dirs = append(t.dirs, dir)
	return nil
}

// stage writes f to a new temporary file beside target, with the final
// mode, and fsyncs it.
func (t *txn) stage(target string, f file) (string, error) {
	mode := fs.FileMode(0o644)
	if f.exec {
		mode = 0o755
	}
	tmp := sibling(target, "tmp")
	w, err := t.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return "", err
	}
	_, err = w.Write(f.data)
	if err == nil {
		err = w.Chmod(mode) // the create mode is filtered by the umask
	}
	if err == nil {
		err = w.Sync()
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = t.root.Remove(tmp)
		return "", err
	}
	return tmp, nil
}

// commit moves each original aside and each staged file into place.
func (t *txn) commit(changes []Change) error {
	for _, c := range changes {
		if _, err := t.root.Lstat(c.Path); err == nil {
			bak := sibling(c.Path, "bak")
			if err := t.rename(c.Path, bak); err != nil {
				return fmt.Errorf("%s: %w", c.Path, err)
			}
			t.backups = append(t.backups, bak)
			t.undo = append(t.undo, func() error { return t.root.Rename(bak, c.Path) })
		}
		tmp, ok := t.staged[c.Path]
		if !ok {
			continue // a delete: moving the original aside was all
		}
		if err := t.rename(tmp, c.Path); err != nil {
			return fmt.Errorf("%s: %w", c.Path, err)
		}
		delete(t.staged, c.Path)
		t.undo = append(t.undo, func() error { return t.root.Remove(c.Path) })
	}
	return nil
}

func (t *txn) rename(from, to string) error {
	if err := beforeRename(from, to); err != nil {
		return err
	}
	return t.root.Rename(from, to)
}

// rollback undoes the commit steps in reverse, then removes the staged
// files and the created directories. Its error says what could not be
// restored.
func (t *txn) rollback() error {
	var errs []error
	for _, u := range slices.Backward(t.undo) {
		errs = append(errs, u())
	}
	for _, tmp := range t.staged {
		errs = append(errs, t.root.Remove(tmp))
	}
	for _, d := range slices.Backward(t.dirs) {
		errs = append(errs, t.root.Remove(d))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("rollback incomplete: %w", err)
	}
	return nil
}

// finish removes the originals moved aside and syncs the directories that
// changed, so the renames survive a crash. Both are best effort: the new
// tree is in place already.
func (t *txn) finish(changes []Change) {
	for _, b := range t.backups {
		_ = t.root.Remove(b)
	}
	dirs := map[string]bool{}
	for _, c := range changes {
		dirs[path.Dir(c.Path)] = true
	}
	for _, d := range t.dirs {
		dirs[path.Dir(d)] = true
	}
	for d := range dirs {
		if f, err := t.root.Open(d); err == nil {
			_ = f.Sync()
			_ = f.Close()
		}
	}
}

// sibling returns a fresh hidden name beside p for a staged file or a
// backup, e.g. "pkg/.calc.py.greenlight-3f2a….tmp".
func sibling(p, kind string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return path.Join(path.Dir(p), "."+path.Base(p)+".greenlight-"+hex.EncodeToString(b[:])+"."+kind)
}
