package snapshot

import (
	"fmt"
	"io"
	"io/fs"
)

// FromFS indexes a file tree, e.g. os.DirFS(dir) in tests or the CLI. Like
// FromTar it lists regular files only and skips .git.
func FromFS(fsys fs.FS, keep KeepFunc, lim Limits) (*Index, error) {
	b := newBuilder(keep, lim)
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name, ok, cerr := cleanName(p)
		if cerr != nil {
			return cerr
		}
		if d.IsDir() {
			if p != "." && !ok { // .git
				return fs.SkipDir
			}
			return nil
		}
		if !ok || !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return b.add(name, info.Size(), func(max int64) ([]byte, error) {
			f, err := fsys.Open(p)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			return io.ReadAll(io.LimitReader(f, max+1))
		})
	})
	if err != nil {
		return nil, fmt.Errorf("index file tree: %w", err)
	}
	return b.finish(), nil
}
