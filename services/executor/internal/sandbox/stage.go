package sandbox

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"
)

// Staged sandboxes: after a run, the warm pool prepares one container with
// what the same owner's next run of the same project will restore (its
// install steps' dependency cache entries and its warm build state), so a
// fix round or a re-verification with unchanged dependencies starts from
// the post-install state instead of restoring it on its critical path.
//
// Trust is the dependency cache's: a staged container holds fresh copies
// of verified entries and has run nothing but tar; it is taken only by a
// run whose stage tag matches exactly (the owner, the image, every cache
// key and workdir; keys cover everything that decides an install), once;
// and an install step whose key was staged is a cache hit exactly as if
// it had been restored at that moment. The trees wait in a directory of
// the workspace with an unguessable name (the same tmpfs, so putting them
// in place is a rename), excluded from the snapshot's commit and removed
// right after.

// stagedMaxAge bounds how long a staged container waits (it holds memory).
const stagedMaxAge = 10 * time.Minute

// maxStagedPerSize is how many staged containers the pool keeps per unit
// of its size, over all tags; the oldest goes first.
const maxStagedPerSize = 2

// stagedTree is one install step's cached tree.
type stagedTree struct {
	key     string
	workdir string // clean, workspace-relative
	paths   []string
}

// staged describes what a staged container holds.
type staged struct {
	tag   string
	dir   string // directory under WorkspaceDir holding the trees
	trees []stagedTree
	// warmKey is the restored warm build state ("" when none).
	warmKey string
}

// stageFor is what a run of this request in img would restore: the cache
// keys of its install steps the snapshot does not block, and its warm
// state; nil when there is nothing.
func (rn *run) stageFor(img ImageInfo) *staged {
	if rn.r.cache == nil || rn.r.pool == nil {
		return nil
	}
	st := &staged{}
	for i := range rn.req.Steps {
		s := &rn.req.Steps[i]
		if !s.usesCache() || rn.req.imageOf(s) != img.Ref || rn.snapshotBlocks(s) != "" {
			continue
		}
		wd, _ := cleanRel(s.Workdir)
		st.trees = append(st.trees, stagedTree{key: rn.cacheKey(s, img), workdir: wd, paths: slices.Clone(s.CachePaths)})
	}
	if p := warmPaths(img); len(p) > 0 {
		st.warmKey = rn.warmKey(img, p)
	}
	if len(st.trees) == 0 && st.warmKey == "" {
		return nil
	}
	h := sha256.New()
	fmt.Fprintf(h, "greenlight-stage-v1\n%d:%s\n%d:%s\n%d:%s\n", len(rn.owner()), rn.owner(), len(img.ID), img.ID, len(st.warmKey), st.warmKey)
	for _, t := range st.trees {
		fmt.Fprintf(h, "%s %d:%s %q\n", t.key, len(t.workdir), t.workdir, t.paths)
	}
	st.tag = hex.EncodeToString(h.Sum(nil))
	return st
}

// stageNext asks the pool to prepare a staged container for the run's
// next of the same kind, in the background.
func (rn *run) stageNext(b *box) {
	if st := rn.stageFor(b.image); st != nil {
		rn.r.pool.stage(b.image, st, rn.r.fillStaged)
	}
}

// fillStaged restores a staged container's trees and warm state; any
// miss or failure discards the container.
func (r *Runner) fillStaged(ctx context.Context, b *box, st *staged) error {
	var rnd [12]byte
	_, _ = rand.Read(rnd[:])
	st.dir = ".greenlight-stage-" + hex.EncodeToString(rnd[:])
	restore := func(key, dir string) error {
		rc, ok, err := r.cache.Get(key)
		if err != nil || !ok {
			return fmt.Errorf("cache entry %s: not available (%v)", shortKey(key), err)
		}
		defer rc.Close()
		return r.restoreInto(ctx, b, rc, dir)
	}
	for _, t := range st.trees {
		if err := restore(t.key, path.Join(WorkspaceDir, st.dir, t.workdir)); err != nil {
			return err
		}
	}
	if st.warmKey != "" {
		if err := restore(st.warmKey, HomeDir); err != nil {
			st.warmKey = "" // the run restores (or builds) it itself
		}
	}
	return nil
}

// placeStagedScript moves the staged trees into their workdirs: $0 is the
// stage directory, then workdir/path pairs. A destination that exists
// stops it (the snapshot brought one: the install step then decides).
const placeStagedScript = `stage=$0
while [ "$#" -ge 2 ]; do
  src="$stage/$1/$2" dst="$1/$2"; shift 2
  { [ -e "$src" ] || [ -h "$src" ]; } || continue
  { [ -e "$dst" ] || [ -h "$dst" ]; } && { echo "$dst exists" >&2; exit 1; }
  mkdir -p "$(dirname -- "$dst")" && mv -- "$src" "$dst" || exit 1
done
chmod -R u+w -- "$stage" 2>/dev/null
rm -rf -- "$stage"`

// placeStaged puts a staged box's trees in place after the checkout and
// records their keys as restored; on failure the install steps restore
// (or install) as usual, and the stage directory is removed: an error
// means it could not be, and the box is not fit for the run.
func (rn *run) placeStaged(ctx context.Context, b *box) error {
	st := b.stage
	if st == nil {
		return nil
	}
	args := []string{"/bin/sh", "-c", placeStagedScript, st.dir}
	for _, t := range st.trees {
		for _, p := range t.paths {
			c, _ := cleanRel(p)
			args = append(args, t.workdir, c)
		}
	}
	if err := rn.r.execQuiet(ctx, b, args, nil); err != nil {
		rn.log.Warn("putting a staged sandbox's dependencies in place failed; the install steps run as usual", zap.Error(err))
		if rerr := rn.cleanTree(ctx, b, WorkspaceDir, []string{st.dir}); rerr != nil {
			return fmt.Errorf("removing the staged dependencies after a failed placement: %w", rerr)
		}
		b.stage = nil
		return nil
	}
	b.placed = map[string]bool{}
	for _, t := range st.trees {
		b.placed[t.key] = true
	}
	return nil
}

// stageExclude is the pathspec the checkout leaves out ("" for none).
func (b *box) stageExclude() string {
	if b.stage == nil {
		return ""
	}
	return b.stage.dir
}

// stage prepares, in the background, one container holding st for img,
// unless one for the same tag is idle or being prepared. The pool keeps
// at most maxStagedPerSize×size of them, dropping the oldest.
func (p *Pool) stage(img ImageInfo, st *staged, fill func(context.Context, *box, *staged) error) {
	if p == nil || p.size <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || !p.poolable(img.Ref) || p.staging[st.tag] || len(p.staged[st.tag]) > 0 {
		return
	}
	p.staging[st.tag] = true
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		c, err := p.create(img)
		if err == nil {
			ctx, cancel := context.WithTimeout(p.ctx, p.timeout)
			err = fill(ctx, &box{id: c.id, image: img, runner: c.runner, sess: c.sess}, st)
			cancel()
			if err != nil {
				p.removeAsync(c)
			}
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		delete(p.staging, st.tag)
		switch {
		case err != nil:
			if p.ctx.Err() == nil {
				p.log.Debug("warm pool: staging a sandbox failed", zap.String("image", img.Ref), zap.Error(err))
			}
		case p.closed:
			p.removeAsync(c)
		default:
			c.staged = st
			p.staged[st.tag] = append(p.staged[st.tag], c)
			p.trimStagedLocked()
		}
	}()
}

// trimStagedLocked drops the oldest staged containers over the cap.
func (p *Pool) trimStagedLocked() {
	for {
		n, oldestTag, oldest := 0, "", time.Time{}
		for tag, list := range p.staged {
			n += len(list)
			if len(list) > 0 && (oldestTag == "" || list[0].created.Before(oldest)) {
				oldestTag, oldest = tag, list[0].created
			}
		}
		if n <= maxStagedPerSize*p.size {
			return
		}
		p.removeAsync(p.staged[oldestTag][0])
		p.staged[oldestTag] = p.staged[oldestTag][1:]
		if len(p.staged[oldestTag]) == 0 {
			delete(p.staged, oldestTag)
		}
	}
}

// takeStaged is take for a container staged under tag.
func (p *Pool) takeStaged(img ImageInfo, lim Limits, runner bool, until time.Time, tag string) (pooled, bool) {
	if p == nil || p.size <= 0 || !sameContainerLimits(lim, p.limits) {
		return pooled{}, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for list := p.staged[tag]; len(list) > 0; list = p.staged[tag] {
		c := list[0]
		p.staged[tag] = list[1:]
		if len(p.staged[tag]) == 0 {
			delete(p.staged, tag)
		}
		if time.Since(c.created) < stagedMaxAge && !c.deadline.Before(until) && c.imageID == img.ID && c.runner == runner {
			return c, true
		}
		p.removeAsync(c)
	}
	return pooled{}, false
}

// stagedNote says what a staged box brought, for the first step's log.
func stagedNote(st *staged) string {
	var what []string
	for _, t := range st.trees {
		for _, p := range t.paths {
			what = append(what, path.Join(t.workdir, p))
		}
	}
	if st.warmKey != "" {
		what = append(what, "warm build state")
	}
	return "staged sandbox: " + strings.Join(what, ", ") + " restored before the run"
}

// Staged returns how many staged containers the pool holds for ref.
func (p *Pool) Staged(ref string) int {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, list := range p.staged {
		for _, c := range list {
			if c.staged != nil && p.images[ref].ID == c.imageID {
				n++
			}
		}
	}
	return n
}
