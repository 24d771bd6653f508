package sandbox

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/greenlight-dev/greenlight/pkg/workspace"
)

// DepCache keeps installed dependency trees, as tar streams, by key.
type DepCache interface {
	// Get opens the entry for key, verified against the digest recorded
	// when it was saved. ok is false on a miss; err reports an entry that
	// failed verification (the cache has already evicted it).
	Get(key string) (rc io.ReadCloser, ok bool, err error)
	// Put stores r (read to EOF) under key; on any error nothing is kept.
	Put(key string, r io.Reader) error
	// Remove evicts the entry for key after it failed to restore; the
	// cache may then refuse to store that key again (the same install
	// would store the same unrestorable tree).
	Remove(key string) error
}

// The dependency cache is trusted only as far as its key reaches, so the key
// covers everything that decides what an install step produces (see
// cacheKey), and a run whose workspace already holds one of the cache paths
// neither restores nor saves: a tree the code under test brought along (a
// .venv with a planted pytest plugin) must never become another run's
// installed dependencies, and restoring over it would mix the two.

// cacheScan is what the snapshot pass collects for the cached install
// steps: the digests of every file that can change an install, and which
// cache paths the snapshot already holds.
type cacheScan struct {
	explicit map[string]bool // the steps' cache_key_files
	workdirs []string        // the cached steps' workdirs
	paths    []string        // their cache paths, joined to the workdir
	hashes   map[string]string
	held     map[string]bool
	// all: hash every manifest and lockfile of the snapshot (they key the
	// warm build state, see warm.go).
	all bool
	// shadows lists, per cached workdir, the entries named like a tool
	// the install runs (see toolshadow.go).
	shadows map[string][]string
}

// newCacheScan prepares the scan for the request's cached install steps.
func (rn *run) newCacheScan() *cacheScan {
	sc := &cacheScan{explicit: map[string]bool{}, hashes: map[string]string{}, held: map[string]bool{}}
	for i := range rn.req.Steps {
		s := &rn.req.Steps[i]
		if !s.usesCache() {
			continue
		}
		wd, _ := cleanRel(s.Workdir)
		sc.workdirs = append(sc.workdirs, wd)
		for _, f := range s.CacheKeyFiles {
			c, _ := cleanRel(f)
			sc.explicit[c] = true
		}
		for _, p := range s.CachePaths {
			sc.paths = append(sc.paths, joinRel(wd, p))
		}
	}
	return sc
}

// observe notes one snapshot entry: whether it puts something at (or a
// link above) a cache path, and whether its content keys the cache.
func (sc *cacheScan) observe(name string, link bool) (hash bool) {
	sc.observeShadow(name)
	for _, p := range sc.paths {
		if name == p || strings.HasPrefix(name, p+"/") || (link && strings.HasPrefix(p, name+"/")) {
			sc.held[p] = true
		}
	}
	if sc.explicit[name] || (sc.all && workspace.InstallFile(name)) {
		return true
	}
	for _, wd := range sc.workdirs {
		if workspace.InstallFileFor(name, wd) {
			return true
		}
	}
	return false
}

// record keeps the digest of a keying file.
func (sc *cacheScan) record(name, digest string) { sc.hashes[name] = digest }

// cacheKey keys an install step's result by everything that decides it:
// the owner (so tenants never share trees), the image ID, the workdir, the
// command, the step's environment, the content of its key files and of
// every file that can change the install (workspace.InstallFileFor: the
// manifests of its tree and its ancestors, whatever discovery listed), and
// the cached paths.
func (rn *run) cacheKey(s *Step, img ImageInfo) string {
	h := sha256.New()
	w := func(parts ...string) {
		for _, p := range parts {
			fmt.Fprintf(h, "%d:%s\n", len(p), p)
		}
	}
	wd, _ := cleanRel(s.Workdir)
	w("greenlight-depcache-v2", rn.owner(), img.ID, wd, s.Command)
	keys := make([]string, 0, len(s.Env))
	for k := range s.Env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		w("env", k, s.Env[k])
	}
	files := map[string]bool{}
	for _, f := range s.CacheKeyFiles {
		c, _ := cleanRel(f)
		files[c] = true
	}
	for f := range rn.snap.cache.hashes {
		if workspace.InstallFileFor(f, wd) {
			files[f] = true
		}
	}
	for _, f := range slices.Sorted(maps.Keys(files)) {
		hash, ok := rn.snap.cache.hashes[f]
		if !ok {
			hash = "absent"
		}
		w("file", f, hash)
	}
	paths := slices.Clone(s.CachePaths)
	slices.Sort(paths)
	w(append([]string{"paths"}, paths...)...)
	return hex.EncodeToString(h.Sum(nil))
}

// The dependency cache must not be used for a step when the workspace
// already holds one of its cache paths, or a module named like a tool the
// install runs (useCache asks snapshotBlocks, then probeBlocked).

// snapshotBlocks says why the snapshot alone rules the cache out for s
// ("" when it does not): it holds a cache path, or a shadowing module.
func (rn *run) snapshotBlocks(s *Step) string {
	wd, _ := cleanRel(s.Workdir)
	var held []string
	for _, p := range s.CachePaths {
		if rn.snap.cache.held[joinRel(wd, p)] {
			held = append(held, dirName(p))
		}
	}
	if len(held) > 0 {
		return "dependency cache not used: the snapshot already contains " + strings.Join(held, ", ")
	}
	return rn.snap.cache.shadowNote(wd)
}

// probeCacheScript prints the cache paths that already exist in the
// workdir (brought by the snapshot through a link, or made by an earlier
// step).
const probeCacheScript = `cd "$0" 2>/dev/null || exit 0
for p do
  if [ -e "$p" ] || [ -h "$p" ]; then printf '%s\n' "$p"; fi
done`

// probeBlocked says why the sandbox rules the cache out for s: an
// earlier step made one of the cache paths.
func (rn *run) probeBlocked(ctx context.Context, b *box, s *Step) string {
	var held []string
	var out bytes.Buffer
	cmd := append([]string{"/bin/sh", "-c", probeCacheScript, workdirPath(s.Workdir)}, s.CachePaths...)
	if _, err := rn.r.execOutput(ctx, b, cmd, nil, &out); err != nil {
		return "dependency cache not used: checking the cache paths failed: " + clip(err.Error())
	}
	for _, p := range strings.Fields(out.String()) {
		held = append(held, dirName(p))
	}
	if len(held) > 0 {
		return "dependency cache not used: the workspace already contains " + strings.Join(held, ", ") + " before the install step"
	}
	return ""
}

// restoreCache unpacks a cached tree into the step's workdir: a fresh copy
// for every run, so nothing a run writes into it reaches the next one.
func (rn *run) restoreCache(ctx context.Context, b *box, rc io.Reader, s *Step) error {
	return rn.restoreTree(ctx, b, rc, workdirPath(s.Workdir))
}

// restoreTree unpacks a cached tar stream into dir in the sandbox.
func (rn *run) restoreTree(ctx context.Context, b *box, rc io.Reader, dir string) error {
	return rn.r.restoreInto(ctx, b, rc, dir)
}

// restoreInto unpacks a tar stream into dir in b.
func (r *Runner) restoreInto(ctx context.Context, b *box, rc io.Reader, dir string) error {
	cmd := []string{"/bin/sh", "-c", `mkdir -p "$0" && exec tar -x -f - -C "$0" --no-same-owner`, dir}
	return r.execQuiet(ctx, b, cmd, rc)
}

// cleanCacheScript removes what a failed restore left in the cache paths
// (probeBlocked made sure none of them existed before); Go's module cache
// is read-only, so write permission comes first.
const cleanCacheScript = `cd "$0" 2>/dev/null || exit 0
chmod -R u+w -- "$@" 2>/dev/null
exec rm -rf -- "$@"`

// cleanCache removes a partial restore from the sandbox.
func (rn *run) cleanCache(ctx context.Context, b *box, s *Step) error {
	return rn.cleanTree(ctx, b, workdirPath(s.Workdir), s.CachePaths)
}

// cleanTree removes paths (relative to dir) from the sandbox.
func (rn *run) cleanTree(ctx context.Context, b *box, dir string, paths []string) error {
	cmd := append([]string{"/bin/sh", "-c", cleanCacheScript, dir}, paths...)
	return rn.r.execQuiet(ctx, b, cmd, nil)
}

// saveCacheScript tars the cache paths that exist, relative to the workdir.
const saveCacheScript = `cd "$0" || exit 1
for p do
  shift
  if [ -e "$p" ] || [ -h "$p" ]; then set -- "$@" "$p"; fi
done
[ "$#" -gt 0 ] || { echo "none of the cache paths exist" >&2; exit 3; }
exec tar -c -f - -- "$@"`

// saveCache streams the step's cache paths out of the box into the cache.
func (rn *run) saveCache(ctx context.Context, b *box, key string, s *Step) error {
	return rn.saveTree(ctx, b, key, workdirPath(s.Workdir), s.CachePaths)
}

// saveTree streams paths (relative to dir) out of the box into the cache
// under key.
func (rn *run) saveTree(ctx context.Context, b *box, key, dir string, paths []string) error {
	cmd := append([]string{"/bin/sh", "-c", saveCacheScript, dir}, paths...)
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := rn.r.cache.Put(key, pr)
		_ = pr.CloseWithError(err) // unblock the exec if Put gave up early
		done <- err
	}()
	_, err := rn.r.execOutput(ctx, b, cmd, nil, pw)
	if err != nil {
		pw.CloseWithError(err)
	} else {
		pw.Close()
	}
	if perr := <-done; err == nil {
		err = perr
	}
	return err
}

// workdirPath is the absolute path of a workspace-relative workdir.
func workdirPath(wd string) string {
	c, _ := cleanRel(wd)
	return path.Join(WorkspaceDir, c)
}

// joinRel joins a cache path to a clean workdir, workspace-relative.
func joinRel(wd, p string) string {
	c, _ := cleanRel(p)
	return path.Join(wd, c)
}

// dirName shows a cache path as a directory ("node_modules/").
func dirName(p string) string {
	c, _ := cleanRel(p)
	return c + "/"
}

// clip shortens an error for a one-line note (tar names a path deeper
// than PATH_MAX in full) and replaces control characters: the text comes
// from inside the sandbox and ends up on terminals.
func clip(s string) string {
	const max = 300
	if len(s) > max {
		s = s[:max] + "…"
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '?'
		}
		return r
	}, validUTF8([]byte(s)))
}

// shortKey abbreviates a cache key for messages.
func shortKey(k string) string {
	return strings.ToLower(k[:min(12, len(k))])
}
