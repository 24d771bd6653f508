package workspace

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
)

// lister collects the entries of a pack, from git or from a walk.
type lister struct {
	ctx     context.Context
	dir     string
	root    *os.Root
	exclude ignoreSet
	entries []entry
	dirs    map[string]bool // directories already added (git mode)
	stats   PackStats
	// verbatim turns off default exclusions and .gitignore while walking.
	verbatim bool
}

// list fills l.entries from git when dir is in a work tree, else by walking.
func (l *lister) list(noGit bool) error {
	if !noGit {
		inGit, err := isGitWorkTree(l.ctx, l.dir)
		if err != nil {
			return err
		}
		if inGit {
			l.stats.Source = SourceGit
			l.dirs = make(map[string]bool)
			return l.listGit("")
		}
	}
	l.stats.Source = SourceWalk
	return l.walk()
}

// addNonDir adds a file or symlink found at rel (info from Lstat), or
// records why it is skipped.
func (l *lister) addNonDir(rel string, info fs.FileInfo) error {
	switch mode := info.Mode(); {
	case mode.IsRegular():
		l.entries = append(l.entries, entry{rel: rel, kind: kindFile, size: info.Size(),
			exec: mode&0o111 != 0, info: info})
	case mode&fs.ModeSymlink != 0:
		target, err := l.root.Readlink(rel)
		if err != nil {
			return fmt.Errorf("pack %q: %w", rel, err)
		}
		if reason := symlinkReason(rel, target); reason != "" {
			l.stats.skip(rel, reason)
			return nil
		}
		l.entries = append(l.entries, entry{rel: rel, kind: kindSymlink, target: target})
	default:
		l.stats.skip(rel, fmt.Sprintf("special file (%s) cannot be packed", mode.Type()))
	}
	return nil
}

// addDirWithParents adds the directory rel and its parents once each (git
// lists files only).
func (l *lister) addDirWithParents(rel string) {
	for rel != "." && rel != "" && !l.dirs[rel] {
		l.dirs[rel] = true
		l.entries = append(l.entries, entry{rel: rel, kind: kindDir})
		rel = path.Dir(rel)
	}
}
