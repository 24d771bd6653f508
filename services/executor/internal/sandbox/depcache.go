package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
)

// DepCache keeps installed dependency trees, as tar streams, by key.
type DepCache interface {
	// Get opens the entry for key; false when there is none.
	Get(key string) (io.ReadCloser, bool)
	// Put stores r (read to EOF) under key; on any error nothing is kept.
	Put(key string, r io.Reader) error
}

// cacheKey keys an install step's result by everything that decides it:
// the owner (so tenants never share trees), the image ID, the workdir, the
// command, the step's environment, the content of its key files
// (lockfiles) and the cached paths.
func (rn *run) cacheKey(s *Step, img ImageInfo) string {
	h := sha256.New()
	w := func(parts ...string) {
		for _, p := range parts {
			fmt.Fprintf(h, "%d:%s\n", len(p), p)
		}
	}
	wd, _ := cleanRel(s.Workdir)
	w("greenlight-depcache-v1", rn.owner(), img.ID, wd, s.Command)
	keys := make([]string, 0, len(s.Env))
	for k := range s.Env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		w("env", k, s.Env[k])
	}
	files := slices.Clone(s.CacheKeyFiles)
	slices.Sort(files)
	for _, f := range files {
		c, _ := cleanRel(f)
		hash, ok := rn.snap.keyHashes[c]
		if !ok {
			hash = "absent"
		}
		w("file", c, hash)
	}
	paths := slices.Clone(s.CachePaths)
	slices.Sort(paths)
	w(append([]string{"paths"}, paths...)...)
	return hex.EncodeToString(h.Sum(nil))
}

// restoreCache unpacks a cached tree into the step's workdir: a fresh copy
// for every run, so nothing a run writes into it reaches the next one.
func (rn *run) restoreCache(ctx context.Context, b *box, key string, rc io.Reader, s *Step) error {
	dir := workdirPath(s.Workdir)
	cmd := []string{"/bin/sh", "-c", `mkdir -p "$0" && exec tar -x -f - -C "$0" --no-same-owner`, dir}
	return rn.r.execQuiet(ctx, b, cmd, rc)
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
	cmd := append([]string{"/bin/sh", "-c", saveCacheScript, workdirPath(s.Workdir)}, s.CachePaths...)
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

// shortKey abbreviates a cache key for messages.
func shortKey(k string) string {
	return strings.ToLower(k[:min(12, len(k))])
}
