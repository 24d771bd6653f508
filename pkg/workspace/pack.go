package workspace

import (
	"archive/tar"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// PackOptions configures Pack.
type PackOptions struct {
	// Limits bounds the workspace; zero fields take DefaultLimits. Pack
	// enforces the same limits as Validate, so a packed workspace always
	// passes validation with the same Limits.
	Limits Limits
	// Exclude holds extra gitignore-syntax patterns, relative to the
	// packed directory, applied in git work trees and elsewhere alike.
	Exclude []string
	// NoGit packs by walking the directory even inside a git work tree.
	NoGit bool
	// Verbatim packs every file under dir: no git, no default exclusions and
	// no .gitignore (Exclude patterns still apply). Re-packing an unpacked
	// snapshot uses it, so a patched snapshot keeps exactly the files the
	// original held, even tracked files a walk would leave out.
	Verbatim bool
}

// PackStats describes a packed workspace.
type PackStats struct {
	// Source is SourceGit when the file list came from git, SourceWalk
	// when the directory was walked.
	Source string
	// Entries counts tar entries (files, directories, symlinks).
	Entries int
	// Files, Dirs and Symlinks count entries by kind.
	Files, Dirs, Symlinks int
	// Bytes is the sum of the packed files' sizes.
	Bytes int64
	// Ignored counts files left out by .gitignore or Exclude patterns
	// while walking (git does not report them).
	Ignored int
	// Skipped lists what was left out for a reason worth telling: excluded
	// directories, symlinks leaving the workspace, special files, files
	// deleted from a git work tree.
	Skipped []Skipped
}

// Skipped is one path left out of a pack, and why.
type Skipped struct {
	Path   string
	Reason string
}

// Sources of a pack's file list.
const (
	SourceGit  = "git"
	SourceWalk = "walk"
)

// Pack writes the directory dir to w as an uncompressed, deterministic tar.
//
// In a git work tree (dir may be any directory inside one) the files are
// those git lists as tracked or untracked-and-not-ignored, as reported by the
// git binary; tracked files deleted from the work tree are skipped.
// Elsewhere (or with NoGit) dir is walked, leaving out .git, dependency and
// cache directories, virtualenvs and build outputs, and honouring .gitignore
// files. Symlinks are kept when their target stays inside dir (see Validate
// for the exact rule) and skipped otherwise; sockets, devices and fifos are
// skipped; nothing is ever followed.
//
// The output depends only on paths, contents, the executable bit and link
// targets: entries are sorted by path, times, owners and modes are fixed
// (0644 or 0755 for files, 0755 for directories), so the same tree always
// gives the same bytes. Limits are checked before anything is written; a
// breach returns an *EntryError wrapping ErrTooLarge, ErrTooManyFiles or
// ErrUnsafeEntry that names the path where packing stopped.
func Pack(ctx context.Context, dir string, w io.Writer, opts PackOptions) (PackStats, error) {
	dir, err := filepath.EvalSymlinks(dir) // walk the directory, not a link to it
	if err != nil {
		return PackStats{}, fmt.Errorf("pack: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return PackStats{}, fmt.Errorf("pack: %w", err)
	}
	defer root.Close()
	l := &lister{ctx: ctx, dir: dir, root: root, verbatim: opts.Verbatim}
	l.exclude.addPatterns(opts.Exclude)
	if err := l.list(opts.NoGit || opts.Verbatim); err != nil {
		return l.stats, err
	}
	slices.SortFunc(l.entries, func(a, b entry) int { return strings.Compare(a.rel, b.rel) })
	lim := opts.Limits.withDefaults()
	if err := checkPlan(l.entries, lim); err != nil {
		return l.stats, err
	}
	err = writeEntries(ctx, dir, l.entries, w, &l.stats)
	return l.stats, err
}

// checkPlan applies the limits to the sorted entries, naming the first
// entry past a limit.
func checkPlan(entries []entry, lim Limits) error {
	var total int64
	for i, e := range entries {
		if over(i+1, lim.MaxFiles) {
			return entryErr(ErrTooManyFiles, e.rel, "workspace has more than %d entries; stopped here", lim.MaxFiles)
		}
		if d := depth(e.rel); over(d, lim.MaxDepth) {
			return entryErr(ErrUnsafeEntry, e.rel, "path has %d components, over the limit of %d", d, lim.MaxDepth)
		}
		if e.kind != kindFile {
			continue
		}
		if over(e.size, lim.MaxFileBytes) {
			return entryErr(ErrTooLarge, e.rel, "file is %d bytes, over the per-file limit of %d", e.size, lim.MaxFileBytes)
		}
		total += e.size
		if over(total, lim.MaxBytes) {
			return entryErr(ErrTooLarge, e.rel, "workspace exceeds %d bytes; stopped here", lim.MaxBytes)
		}
	}
	return nil
}

// writeEntries writes the tar.
func writeEntries(ctx context.Context, dir string, entries []entry, w io.Writer, st *PackStats) error {
	tw := tar.NewWriter(w)
	buf := make([]byte, 256<<10)
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("pack: %w", err)
		}
		if err := tw.WriteHeader(e.header()); err != nil {
			return fmt.Errorf("pack %q: %w", e.rel, err)
		}
		if e.kind == kindFile {
			if err := copyFile(dir, e, tw, buf); err != nil {
				return err
			}
		}
		st.count(e)
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("pack: %w", err)
	}
	return nil
}

// copyFile copies one listed file's content into the tar writer.
//
// The file is opened by path with O_NOFOLLOW (a final symlink is refused)
// and O_NONBLOCK (a fifo swapped in cannot block us), and must still be the
// inode that was listed, with the listed size: whatever happened to the
// tree in between, only the listed file's bytes are packed. Opening by path
// rather than through os.Root saves one openat per path component, a third
// of Pack's time on a tree of small files.
func copyFile(dir string, e entry, tw *tar.Writer, buf []byte) error {
	f, err := os.OpenFile(filepath.Join(dir, filepath.FromSlash(e.rel)), os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return fmt.Errorf("pack %q: %w", e.rel, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("pack %q: %w", e.rel, err)
	}
	if !os.SameFile(fi, e.info) || !fi.Mode().IsRegular() || fi.Size() != e.size {
		return entryErr(ErrChanged, e.rel, "replaced or resized while packing")
	}
	// Hide ReaderFrom/WriterTo so that CopyBuffer uses our large buffer.
	n, err := io.CopyBuffer(struct{ io.Writer }{tw}, struct{ io.Reader }{io.LimitReader(f, e.size)}, buf)
	if err != nil {
		return fmt.Errorf("pack %q: %w", e.rel, err)
	}
	if n != e.size {
		return entryErr(ErrChanged, e.rel, "shrank while packing (%d of %d bytes read)", n, e.size)
	}
	return nil
}

func (st *PackStats) count(e entry) {
	st.Entries++
	switch e.kind {
	case kindFile:
		st.Files++
		st.Bytes += e.size
	case kindDir:
		st.Dirs++
	case kindSymlink:
		st.Symlinks++
	}
}

func (st *PackStats) skip(rel, reason string) {
	st.Skipped = append(st.Skipped, Skipped{Path: rel, Reason: reason})
}
