package patch

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
)

// plan is one file's computed change, ready to be written.
type plan struct {
	change
	content []byte // the new content; unused for a deletion
	old     []byte // the old content; nil for a creation
}

// planFile checks one file change against the tree and computes its new
// content, writing nothing.
func planFile(root *os.Root, f *File) (plan, error) {
	for _, name := range f.Paths() {
		if err := checkNoSymlink(root, name); err != nil {
			return plan{}, err
		}
	}
	if f.Op == OpModify && impliedAdd(f) {
		if _, err := root.Lstat(f.OldPath); errors.Is(err, fs.ErrNotExist) {
			// "--- a/x" with a lone "@@ -0,0 +1,n @@" hunk creates x,
			// as patch(1) would.
			add := *f
			add.Op, add.OldPath = OpAdd, ""
			return planFile(root, &add)
		}
	}
	var (
		old     = text{eol: true}
		oldMode uint32
		err     error
	)
	if f.OldPath != "" {
		if old, oldMode, err = readOld(root, f.OldPath); err != nil {
			return plan{}, err
		}
	}
	if f.Op == OpAdd || f.Op == OpRename {
		if _, err := root.Lstat(f.NewPath); err == nil {
			return plan{}, &ApplyError{Path: f.NewPath, Reason: "the file already exists; change it with an update instead"}
		}
	}
	if f.Op == OpDelete {
		pl, err := planDelete(f, old, oldMode)
		pl.old = old.bytes()
		return pl, err
	}
	ap, err := applyHunks(f.Path(), old, f.Hunks)
	if err != nil {
		return plan{}, err
	}
	newMode := oldMode
	if f.NewMode != 0 {
		newMode = f.NewMode
	}
	if newMode == 0 {
		newMode = ModeFile
	}
	return plan{
		change: change{file: f, oldMode: oldMode, newMode: newMode,
			ops: wholeFile(old, f.Hunks, ap.at), oldEOL: old.eol, newEOL: ap.result.eol},
		content: ap.result.bytes(),
		old:     old.bytes(),
	}, nil
}

// impliedAdd reports whether a modification is really a creation: one
// positioned hunk that expects nothing.
func impliedAdd(f *File) bool {
	return len(f.Hunks) == 1 && f.Hunks[0].Positioned && f.Hunks[0].OldStart == 0 &&
		len(f.Hunks[0].oldLines()) == 0
}

// planDelete checks a deletion: the file goes, and if the patch spelled
// out its content, that content must be the whole file.
func planDelete(f *File, old text, oldMode uint32) (plan, error) {
	if len(f.Hunks) > 0 {
		ap, err := applyHunks(f.OldPath, old, f.Hunks)
		if err != nil {
			return plan{}, err
		}
		if len(ap.result.lines) > 0 {
			return plan{}, &ApplyError{Path: f.OldPath, Reason: fmt.Sprintf(
				"the deletion leaves %d line(s) of the file behind", len(ap.result.lines))}
		}
	}
	ops := make([]Line, len(old.lines))
	for i, l := range old.lines {
		ops[i] = Line{Op: LineDelete, Text: l}
	}
	return plan{change: change{file: f, oldMode: oldMode, ops: ops, oldEOL: old.eol, newEOL: true}}, nil
}

// readOld reads an existing regular text file of the tree.
func readOld(root *os.Root, name string) (text, uint32, error) {
	info, err := root.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return text{}, 0, &ApplyError{Path: name, Reason: "the file does not exist"}
	case err != nil:
		return text{}, 0, fmt.Errorf("apply patch: %w", err)
	case !info.Mode().IsRegular():
		return text{}, 0, &ApplyError{Path: name, Reason: "not a regular file"}
	}
	b, err := readNoFollow(root, name)
	if err != nil {
		return text{}, 0, err
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return text{}, 0, refuse(RuleBinary, name, "the file is binary; only text files may be patched")
	}
	mode := ModeFile
	if info.Mode()&0o111 != 0 {
		mode = ModeExecutable
	}
	return splitText(b), mode, nil
}

// readNoFollow reads a file without following a final symlink.
func readNoFollow(root *os.Root, name string) ([]byte, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, fmt.Errorf("apply patch: %w", err)
	}
	defer f.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(f); err != nil {
		return nil, fmt.Errorf("apply patch: reading %s: %w", name, err)
	}
	return b.Bytes(), nil
}

// checkNoSymlink refuses a path that is, or passes through, a symlink in
// the tree, and reports a parent that is not a directory.
func checkNoSymlink(root *os.Root, name string) error {
	parts := strings.Split(name, "/")
	for i := range parts {
		prefix := strings.Join(parts[:i+1], "/")
		info, err := root.Lstat(prefix)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil
		case err != nil:
			return fmt.Errorf("apply patch: %w", err)
		case info.Mode()&fs.ModeSymlink != 0:
			if prefix == name {
				return refuse(RuleSymlink, name, "the path is a symlink in the workspace; patches never write through symlinks")
			}
			return refuse(RuleSymlink, name, "%q is a symlink in the workspace; patches never write through symlinks", prefix)
		case i < len(parts)-1 && !info.IsDir():
			return &ApplyError{Path: name, Reason: fmt.Sprintf("%q is a file, not a directory", prefix)}
		}
	}
	return nil
}

// writePlans removes old paths, then writes new contents.
func writePlans(root *os.Root, plans []plan) error {
	for _, pl := range plans {
		f := pl.file
		if f.Op == OpDelete || f.Op == OpRename {
			if err := root.Remove(f.OldPath); err != nil {
				return fmt.Errorf("apply patch: %w", err)
			}
			pruneEmptyDirs(root, path.Dir(f.OldPath))
		}
	}
	for _, pl := range plans {
		if pl.file.Op == OpDelete {
			continue
		}
		if err := writeFile(root, pl.file.Path(), pl.content, pl.newMode); err != nil {
			return err
		}
	}
	return nil
}

// writeFile writes content at name, creating parents, re-checking with
// Lstat that no component is a symlink and opening with O_NOFOLLOW.
func writeFile(root *os.Root, name string, content []byte, mode uint32) error {
	if dir := path.Dir(name); dir != "." {
		if err := checkNoSymlink(root, dir); err != nil {
			return err
		}
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("apply patch: %w", err)
		}
	}
	if err := checkNoSymlink(root, name); err != nil {
		return err
	}
	perm := fs.FileMode(0o644)
	if mode == ModeExecutable {
		perm = 0o755
	}
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, perm)
	if err != nil {
		return fmt.Errorf("apply patch: %w", err)
	}
	_, err = f.Write(content)
	if err == nil {
		err = f.Chmod(perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("apply patch: writing %s: %w", name, err)
	}
	return nil
}

// pruneEmptyDirs removes dir and its parents while they are empty, as git
// does when the last file of a directory goes.
func pruneEmptyDirs(root *os.Root, dir string) {
	for ; dir != "." && dir != "/"; dir = path.Dir(dir) {
		if root.Remove(dir) != nil {
			return
		}
	}
}

// checkPlanConfig applies the key-level config rule to one planned change:
// the old path loses its content when deleted or renamed away, the new
// path gains the planned content.
func checkPlanConfig(pl plan, g Guardrails) *Refusal {
	f := pl.file
	if f.OldPath != "" && isKeyedConfig(f.OldPath) {
		var after []byte
		if f.Op != OpDelete && f.Op != OpRename {
			after = pl.content
		}
		if r := checkConfigContent(f.OldPath, pl.old, after, g); r != nil {
			return r
		}
	}
	if f.NewPath != "" && f.NewPath != f.OldPath && f.Op != OpDelete && isKeyedConfig(f.NewPath) {
		return checkConfigContent(f.NewPath, nil, pl.content, g)
	}
	return nil
}
