package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// ErrGit marks a failure of the git binary while listing a work tree.
var ErrGit = errors.New("git failed")

// gitCommand prepares a git command run in dir. The environment drops
// GIT_* variables (a caller running inside a git hook would otherwise point
// us at another repository) and the config disables fsmonitor, which would
// run a program named by the repository's config.
func gitCommand(ctx context.Context, dir string, args ...string) *exec.Cmd {
	base := []string{"-c", "core.fsmonitor=false", "-c", "core.quotePath=off"}
	cmd := exec.CommandContext(ctx, "git", append(base, args...)...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	// Never take the index lock: packing must not touch the user's tree.
	// Untranslated messages: isGitWorkTree recognises one of them.
	cmd.Env = append(cmd.Env, "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	return cmd
}

// runGit runs git and returns its standard output.
func runGit(ctx context.Context, dir string, args ...string) ([]byte, error) {
	var stderr bytes.Buffer
	cmd := gitCommand(ctx, dir, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("pack: %w", ctx.Err())
		}
		return nil, fmt.Errorf("%w: git %s in %s: %v: %s", ErrGit, args[0], dir, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// isGitWorkTree reports whether dir is inside a git work tree. Without a
// git binary the answer is no, and the directory is walked instead.
func isGitWorkTree(ctx context.Context, dir string) (bool, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return false, nil
	}
	out, err := runGit(ctx, dir, "rev-parse", "--is-inside-work-tree")
	if err != nil {
		if strings.Contains(err.Error(), "not a git repository") {
			return false, nil
		}
		return false, fmt.Errorf("%w (set PackOptions.NoGit to pack without git)", err)
	}
	return strings.TrimSpace(string(out)) == "true", nil
}

// listGit adds the files git lists under prefix (relative to l.dir): the
// tracked ones still present plus the untracked ones not ignored. Run from
// the directory itself, ls-files restricts the listing to it and prints
// paths relative to it, so a subdirectory of a repository packs as its own
// root.
func (l *lister) listGit(prefix string) error {
	dir := filepath.Join(l.dir, filepath.FromSlash(prefix))
	out, err := runGit(l.ctx, dir, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return err
	}
	seen := make(map[string]bool)
	for _, p := range strings.Split(string(out), "\x00") {
		if p == "" || seen[p] {
			continue // unmerged paths are listed once per stage
		}
		seen[p] = true
		if err := l.addGitPath(path.Join(prefix, strings.TrimSuffix(p, "/"))); err != nil {
			return err
		}
	}
	return nil
}

// addGitPath adds one path listed by git.
func (l *lister) addGitPath(rel string) error {
	if err := l.ctx.Err(); err != nil {
		return fmt.Errorf("pack: %w", err)
	}
	if reason := l.parentReason(rel); reason != "" {
		l.stats.skip(rel, reason)
		return nil
	}
	info, err := l.root.Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		l.stats.skip(rel, "tracked by git but deleted from the work tree")
		return nil
	}
	if err != nil {
		return fmt.Errorf("pack %q: %w", rel, err)
	}
	if l.exclude.matchAny(rel, info.IsDir()) {
		l.stats.Ignored++
		return nil
	}
	l.addDirWithParents(path.Dir(rel))
	if info.IsDir() {
		return l.addNestedRepo(rel)
	}
	return l.addNonDir(rel, info)
}

// addNestedRepo handles a directory git lists as one path: a submodule or
// an untracked nested repository. Its own files are listed by its own git;
// an unpopulated submodule is an empty directory.
func (l *lister) addNestedRepo(rel string) error {
	l.addDirWithParents(rel)
	if _, err := l.root.Lstat(path.Join(rel, ".git")); err != nil {
		l.stats.skip(rel, "unpopulated submodule: packed as an empty directory")
		return nil
	}
	return l.listGit(rel)
}

// parentReason checks that every parent of rel is a real directory, so
// that a tracked "a/x" is not read through a symlink "a" that replaced
// the directory in the work tree.
func (l *lister) parentReason(rel string) string {
	for p := path.Dir(rel); p != "."; p = path.Dir(p) {
		if l.dirs[p] {
			return "" // already checked, and so are its parents
		}
		info, err := l.root.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return "tracked by git but deleted from the work tree"
		case err != nil:
			return fmt.Sprintf("parent %q unreadable: %v", p, err)
		case info.Mode()&fs.ModeSymlink != 0:
			return fmt.Sprintf("parent %q is a symlink", p)
		case !info.IsDir():
			return fmt.Sprintf("parent %q is not a directory", p)
		}
	}
	return ""
}
