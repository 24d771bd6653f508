// Package fswatch tells when the files of a workspace change, for
// `greenlight verify --watch`. It watches every directory a pack would
// take with fsnotify (inotify on Linux, kqueue on macOS; not recursive, so
// each directory has its own watch and new ones are added as they appear),
// leaves out what a pack leaves out (workspace.Ignorer: .git, dependency
// trees, build outputs, .gitignore'd paths), and hands over changes in
// batches once the tree has been quiet for a while (debounced: an editor's
// save or a `git checkout` is one batch, not one per file).
package fswatch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/greenlight-dev/greenlight/pkg/workspace"
)

// DefaultQuiet is how long the tree must stay unchanged before a batch is
// handed over.
const DefaultQuiet = 300 * time.Millisecond

// Watcher watches one workspace directory.
type Watcher struct {
	dir   string
	quiet time.Duration
	w     *fsnotify.Watcher
	ign   *workspace.Ignorer
	// unwatched counts directories whose watch could not be added (the
	// inotify watch limit, fs.inotify.max_user_watches, reached).
	unwatched int
}

// New starts watching dir. quiet is the debounce (0: DefaultQuiet).
func New(dir string, quiet time.Duration) (*Watcher, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", dir, err)
	}
	if quiet <= 0 {
		quiet = DefaultQuiet
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", dir, err)
	}
	fw := &Watcher{dir: abs, quiet: quiet, w: w, ign: workspace.NewIgnorer(abs)}
	if err := fw.addTree(abs); err != nil {
		_ = w.Close()
		return nil, err
	}
	return fw, nil
}

// Unwatched is how many directories could not be watched (their changes
// go unseen): the system's watch limit was reached.
func (fw *Watcher) Unwatched() int { return fw.unwatched }

// Close stops watching.
func (fw *Watcher) Close() error { return fw.w.Close() }

// addTree watches root and every directory below it a pack would take.
func (fw *Watcher) addTree(root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return fmt.Errorf("watch %s: %w", p, err)
			}
			return nil // vanished meanwhile, or unreadable: nothing to watch
		}
		if !d.IsDir() {
			return nil
		}
		if p != root && fw.ignored(p, true) {
			return filepath.SkipDir
		}
		if err := fw.w.Add(p); err != nil {
			if p == fw.dir {
				return fmt.Errorf("watch %s: %w", p, err)
			}
			fw.unwatched++
		}
		return nil
	})
}

// ignored reports whether the absolute path p is out of the pack.
func (fw *Watcher) ignored(p string, isDir bool) bool {
	rel, err := filepath.Rel(fw.dir, p)
	if err != nil {
		return true
	}
	return fw.ign.Ignored(filepath.ToSlash(rel), isDir)
}

// Next waits for the next batch of changes and returns the changed paths
// (relative to the workspace, sorted). It returns ctx's error when ctx
// ends first.
func (fw *Watcher) Next(ctx context.Context) ([]string, error) {
	changed := map[string]bool{}
	var quiet <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case err, ok := <-fw.w.Errors:
			if !ok {
				return nil, errors.New("watch: closed")
			}
			// An overflowed queue lost events: say something changed.
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				changed["."] = true
				quiet = time.After(fw.quiet)
			}
		case ev, ok := <-fw.w.Events:
			if !ok {
				return nil, errors.New("watch: closed")
			}
			if rel, ok := fw.event(ev); ok {
				changed[rel] = true
				quiet = time.After(fw.quiet)
			}
		case <-quiet:
			out := make([]string, 0, len(changed))
			for p := range changed {
				out = append(out, p)
			}
			slices.Sort(out)
			return out, nil
		}
	}
}

// event sorts one fsnotify event: the path it changed, or false when the
// path is out of the pack. A new directory is watched (and what was
// already written into it counts); a changed .gitignore resets the rules.
func (fw *Watcher) event(ev fsnotify.Event) (string, bool) {
	if ev.Op == fsnotify.Chmod {
		return "", false // a mode-only change (editors, indexers touching atime) changes no content
	}
	rel, err := filepath.Rel(fw.dir, ev.Name)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	if path.Base(rel) == ".gitignore" {
		fw.ign = workspace.NewIgnorer(fw.dir)
	}
	isDir := false
	if ev.Has(fsnotify.Create) {
		if info, err := lstatDir(ev.Name); err == nil && info {
			isDir = true
		}
	}
	if fw.ign.Ignored(rel, isDir) {
		return "", false
	}
	if isDir {
		_ = fw.addTree(ev.Name)
	}
	return rel, true
}

// lstatDir reports whether p is a directory (not a link to one).
func lstatDir(p string) (bool, error) {
	info, err := os.Lstat(p)
	if err != nil {
		return false, err
	}
	return info.IsDir(), nil
}
