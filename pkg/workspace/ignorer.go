package workspace

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Ignorer tells whether a path of a workspace directory is left out of its
// pack by the walk's rules: .git, the default exclusions (dependency trees,
// caches, virtualenvs, build outputs next to their manifest) and the
// .gitignore files of the directory and of every directory above the path
// inside it. A watcher uses it to leave alone what a pack would not take
// (`greenlight verify --watch`); it does not run git, so a pattern only git
// knows (.git/info/exclude, a global excludes file) is not seen here, and
// the pack itself stays the judge of what changed.
//
// An Ignorer reads each .gitignore once: make a new one when a .gitignore
// changes. It is not safe for concurrent use.
type Ignorer struct {
	dir  string
	ign  ignoreSet
	read map[string]bool
}

// NewIgnorer returns the Ignorer of workspace directory dir.
func NewIgnorer(dir string) *Ignorer {
	return &Ignorer{dir: dir, read: map[string]bool{}}
}

// Ignored reports whether rel (slash-separated, relative to the workspace)
// is left out: itself or a directory above it.
func (i *Ignorer) Ignored(rel string, isDir bool) bool {
	rel = path.Clean(filepath.ToSlash(rel))
	if rel == "." || rel == "" {
		return false
	}
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return true
	}
	parts := strings.Split(rel, "/")
	i.readIgnore(nil)
	for n := 1; n <= len(parts); n++ {
		dir := n < len(parts) || isDir
		name := parts[n-1]
		if name == ".git" {
			return true
		}
		if dir {
			abs := filepath.Join(i.dir, filepath.FromSlash(strings.Join(parts[:n], "/")))
			if defaultExcludeReason(filepath.Dir(abs), name, abs) != "" {
				return true
			}
		}
		if i.ign.match(parts[:n], dir) {
			return true
		}
		if n < len(parts) {
			i.readIgnore(parts[:n])
		}
	}
	return false
}

// readIgnore adds the patterns of the .gitignore in the directory parts
// (nil: the root), once.
func (i *Ignorer) readIgnore(parts []string) {
	key := strings.Join(parts, "/")
	if i.read[key] {
		return
	}
	i.read[key] = true
	p := filepath.Join(i.dir, filepath.FromSlash(key), ".gitignore")
	info, err := os.Lstat(p)
	if err != nil || !info.Mode().IsRegular() {
		return // a symlinked or odd .gitignore is not honoured, as in a pack
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return
	}
	i.ign.add(data, append([]string(nil), parts...))
}
