// Package snapshot builds an in-memory index of a workspace snapshot without
// unpacking it: every regular file's path, plus the contents of the few
// small files detection needs (manifests, lockfile names only, configs).
//
// The same builder reads an uncompressed tar stream (what the blob store
// holds) or any fs.FS (fixture directories in tests via os.DirFS), so the
// code path under test is the one the service runs.
package snapshot

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
)

// Sentinel errors.
var (
	// ErrMalformed marks a stream that is not a readable tar archive or an
	// entry with an unsafe name (absolute, or with a ".." component).
	ErrMalformed = errors.New("malformed snapshot")
	// ErrTooLarge marks a snapshot over the index limits.
	ErrTooLarge = errors.New("snapshot too large to index")
	// ErrNotIndexed is returned by ReadFile for a file that exists but whose
	// content was not kept (it is not a marker file).
	ErrNotIndexed = errors.New("file content not indexed")
	// ErrContentTooLarge is returned by ReadFile for a marker file over the
	// per-file content cap.
	ErrContentTooLarge = errors.New("file content over the index cap")
)

// Limits bound the memory an index may use.
type Limits struct {
	// MaxFiles caps the number of regular files.
	MaxFiles int
	// MaxContentBytes caps one kept file's content; bigger files are listed
	// but their content is dropped (ReadFile says ErrContentTooLarge).
	MaxContentBytes int64
	// MaxTotalContentBytes caps the sum of kept contents.
	MaxTotalContentBytes int64
}

// DefaultLimits are generous for source trees and small next to a sandbox.
func DefaultLimits() Limits {
	return Limits{MaxFiles: 500_000, MaxContentBytes: 1 << 20, MaxTotalContentBytes: 64 << 20}
}

// KeepFunc says whether the content of a file (workspace-relative slash
// path) is needed.
type KeepFunc func(name string) bool

// Index is the in-memory view of one snapshot. It is immutable once built and
// safe for concurrent readers.
type Index struct {
	files    []string
	contents map[string][]byte
	tooLarge map[string]bool
}

// Files returns every regular file path, sorted, slash-separated, relative to
// the workspace root. Callers must not modify the slice.
func (ix *Index) Files() []string { return ix.files }

// Has reports whether a regular file exists.
func (ix *Index) Has(name string) bool {
	_, ok := slices.BinarySearch(ix.files, name)
	return ok
}

// ReadFile returns a kept file's content. It fails with fs.ErrNotExist for a
// missing file, ErrNotIndexed for a file whose content was not kept and
// ErrContentTooLarge for a kept file over the cap.
func (ix *Index) ReadFile(name string) ([]byte, error) {
	if b, ok := ix.contents[name]; ok {
		return b, nil
	}
	if ix.tooLarge[name] {
		return nil, fmt.Errorf("%s: %w", name, ErrContentTooLarge)
	}
	if ix.Has(name) {
		return nil, fmt.Errorf("%s: %w", name, ErrNotIndexed)
	}
	return nil, fmt.Errorf("%s: %w", name, fs.ErrNotExist)
}

// builder accumulates an Index.
type builder struct {
	keep    KeepFunc
	lim     Limits
	ix      *Index
	content int64
}

func newBuilder(keep KeepFunc, lim Limits) *builder {
	def := DefaultLimits()
	if lim.MaxFiles == 0 {
		lim.MaxFiles = def.MaxFiles
	}
	if lim.MaxContentBytes == 0 {
		lim.MaxContentBytes = def.MaxContentBytes
	}
	if lim.MaxTotalContentBytes == 0 {
		lim.MaxTotalContentBytes = def.MaxTotalContentBytes
	}
	return &builder{keep: keep, lim: lim, ix: &Index{contents: map[string][]byte{}, tooLarge: map[string]bool{}}}
}

// add registers a file; read is called only when the content is wanted and
// returns at most max+1 bytes.
func (b *builder) add(name string, size int64, read func(max int64) ([]byte, error)) error {
	if len(b.ix.files) >= b.lim.MaxFiles {
		return fmt.Errorf("%w: more than %d files", ErrTooLarge, b.lim.MaxFiles)
	}
	b.ix.files = append(b.ix.files, name)
	if b.keep == nil || !b.keep(name) {
		return nil
	}
	if size > b.lim.MaxContentBytes {
		b.ix.tooLarge[name] = true
		return nil
	}
	data, err := read(b.lim.MaxContentBytes)
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	if int64(len(data)) > b.lim.MaxContentBytes {
		b.ix.tooLarge[name] = true
		return nil
	}
	b.content += int64(len(data))
	if b.content > b.lim.MaxTotalContentBytes {
		return fmt.Errorf("%w: marker files exceed %d bytes in total", ErrTooLarge, b.lim.MaxTotalContentBytes)
	}
	b.ix.contents[name] = data
	return nil
}

// finish sorts and de-duplicates (a tar may repeat a name; the last entry
// wins for contents, as in extraction).
func (b *builder) finish() *Index {
	sort.Strings(b.ix.files)
	b.ix.files = slices.Compact(b.ix.files)
	b.ix.files = slices.Clip(b.ix.files)
	return b.ix
}

// cleanName normalizes an archive entry name and refuses unsafe ones. The
// second result is false for names that are not files of the workspace
// (the root itself, or anything inside .git).
func cleanName(raw string) (string, bool, error) {
	name := strings.TrimPrefix(raw, "./")
	if name == "" || name == "." {
		return "", false, nil
	}
	if strings.HasPrefix(name, "/") || slices.Contains(strings.Split(name, "/"), "..") {
		return "", false, fmt.Errorf("%w: unsafe entry name %q", ErrMalformed, raw)
	}
	clean := path.Clean(name)
	if clean == ".git" || strings.HasPrefix(clean, ".git/") {
		return "", false, nil
	}
	return clean, true, nil
}
