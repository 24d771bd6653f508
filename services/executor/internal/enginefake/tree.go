package enginefake

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// cgroupDir is where the sandbox reads the memory cgroup's counters.
const cgroupDir = "/sys/fs/cgroup"

// tree is the host directory standing for a container's filesystem.
type tree struct {
	dir string
	// rewrite maps the sandbox's absolute paths into dir.
	rewrite *strings.Replacer
}

// newTree creates a container's tree under base: each tmpfs mount point
// with the mode and owner of its options, and a writable memory.events
// whose OOM counter is 0.
func newTree(base, name string, tmpfs map[string]string) (*tree, error) {
	t := &tree{dir: filepath.Join(base, name)}
	mounts := []string{sandbox.WorkspaceDir, sandbox.HomeDir, sandbox.TmpDir, cgroupDir}
	var pairs []string
	for _, m := range mounts {
		pairs = append(pairs, m, t.dir+m)
	}
	t.rewrite = strings.NewReplacer(pairs...)
	for _, m := range mounts {
		if err := os.MkdirAll(t.dir+m, 0o755); err != nil {
			return nil, fmt.Errorf("enginefake: %w", err)
		}
	}
	for m, opts := range tmpfs {
		if err := os.MkdirAll(t.dir+m, 0o755); err != nil {
			return nil, fmt.Errorf("enginefake: %w", err)
		}
		if err := mountLike(t.dir+m, opts); err != nil {
			return nil, err
		}
	}
	events := filepath.Join(t.dir+cgroupDir, "memory.events")
	if err := os.WriteFile(events, []byte("oom 0\noom_kill 0\n"), 0o666); err != nil {
		return nil, fmt.Errorf("enginefake: %w", err)
	}
	// WriteFile's mode is masked by the umask.
	if err := os.Chmod(events, 0o666); err != nil {
		return nil, fmt.Errorf("enginefake: %w", err)
	}
	return t, nil
}

// mountLike gives dir the mode, uid and gid of tmpfs options
// ("mode=1777,uid=10001,..."); the owner only when the test runs as root.
func mountLike(dir, opts string) error {
	uid, gid := -1, -1
	for _, o := range strings.Split(opts, ",") {
		k, v, _ := strings.Cut(o, "=")
		switch k {
		case "mode":
			mode, err := strconv.ParseUint(v, 8, 32)
			if err != nil {
				return fmt.Errorf("enginefake: tmpfs mode %q: %w", v, err)
			}
			if err := os.Chmod(dir, fileMode(mode)); err != nil {
				return fmt.Errorf("enginefake: %w", err)
			}
		case "uid":
			uid, _ = strconv.Atoi(v)
		case "gid":
			gid, _ = strconv.Atoi(v)
		}
	}
	if os.Geteuid() == 0 && (uid >= 0 || gid >= 0) {
		if err := os.Chown(dir, uid, gid); err != nil {
			return fmt.Errorf("enginefake: %w", err)
		}
	}
	return nil
}

// fileMode converts a numeric mode with its special bits (1777).
func fileMode(m uint64) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	if m&0o1000 != 0 {
		mode |= fs.ModeSticky
	}
	if m&0o2000 != 0 {
		mode |= fs.ModeSetgid
	}
	if m&0o4000 != 0 {
		mode |= fs.ModeSetuid
	}
	return mode
}

// path maps s, a path or any text naming the sandbox's paths, into the
// tree.
func (t *tree) path(s string) string { return t.rewrite.Replace(s) }

// paths maps every element of ss.
func (t *tree) paths(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = t.path(s)
	}
	return out
}

// argv maps a command's arguments into the tree. An archive tar creates
// names its members as in the container: the tree's prefix is cut from
// them.
func (t *tree) argv(argv []string) []string {
	out := t.paths(argv)
	if len(out) > 1 && filepath.Base(out[0]) == "tar" && slices.Contains(out[1:], "-c") {
		strip := "--transform=s," + strings.TrimPrefix(t.dir, "/") + "/,,"
		out = slices.Insert(out, 1, strip)
	}
	return out
}

// oomKills reads the tree's OOM counter, -1 when unreadable.
func (t *tree) oomKills() int64 {
	b, err := os.ReadFile(filepath.Join(t.dir+cgroupDir, "memory.events"))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "oom_kill "); ok {
			if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				return n
			}
		}
	}
	return -1
}

// remove deletes the tree.
func (t *tree) remove() error { return removeTree(t.dir) }

// removeTree deletes dir even where a tool left read-only directories
// (Go's module cache), which only root could otherwise delete from.
func removeTree(dir string) error {
	if err := os.RemoveAll(dir); err == nil {
		return nil
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o755)
		}
		return nil
	})
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("enginefake: removing %s: %w", dir, err)
	}
	return nil
}
