package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/workspace"
	"go.uber.org/zap"
)

// Warm build state is what a developer's machine keeps between two runs of
// the same project: Go's compiled packages and downloaded modules. A run
// restores it into the sandbox's home directory before its first step and,
// when it had none, saves it once, from the same dependency cache (one size
// budget, the same integrity checks, evicted when it fails to restore).
//
// Trust: code under test runs as the same user as the tools, so it could
// rewrite a cached compile output (testify's assert always passing) and
// make a later verdict of the same owner green. State is therefore saved
// only at the trust point: before the first step in the sandbox that is not
// toolchain-only (Step.ToolchainOnly: the toolchain on the project's files,
// never the project's code), and only when every step before it exited by
// itself (OK or failed, never killed or timed out). What the toolchain wrote up to there is a function of the inputs the
// key covers (the owner, the image, every manifest and lockfile of the
// snapshot); Go's build cache is keyed by its own hashes of the sources on
// top. A run that restored state never saves it, so nothing a test writes
// into its private copy reaches another run.

// LabelWarm is an image label listing, space-separated, the directories
// (relative to the sandbox user's home) where the image's tools keep
// caches worth keeping between runs. It overrides defaultWarmPaths.
const LabelWarm = "greenlight.warm"

// labelImageKind names the toolchain of greenlight's own images ("go").
const labelImageKind = "greenlight.image"

// defaultWarmPaths are the warm paths of greenlight's images, by kind.
// Only Go has toolchain-only steps today; pip, npm, cargo, CMake and Maven
// run project code from their first step (setup.py, lifecycle scripts,
// build.rs, CMakeLists.txt, plugins), so their caches would never reach a
// trust point (their installed trees are the dependency cache's).
var defaultWarmPaths = map[string][]string{
	"go": {".cache/go-build", "go/pkg/mod"},
}

// warmState is a box's warm build state.
type warmState struct {
	paths []string
	key   string
	// compile is the image's warm compile command ("" for none) and dirs
	// the toolchain-only steps that ran in the box, where it runs.
	compile string
	dirs    []warmDir
	// pending: there was no entry, so this box saves one at its trust
	// point; clean: every step so far was toolchain-only and OK; built:
	// at least one of them ran (there is something worth keeping).
	pending, clean, built bool
	// note is the message for the log of the first step in the box.
	note string
}

// warmPaths are the image's warm paths, clean and inside the home
// directory; none when the label names a path outside it.
func warmPaths(img ImageInfo) []string {
	fields := defaultWarmPaths[img.Labels[labelImageKind]]
	if l, ok := img.Labels[LabelWarm]; ok {
		fields = strings.Fields(l)
	}
	var out []string
	for _, f := range fields {
		c, err := cleanRel(f)
		if err != nil || c == "." {
			return nil
		}
		out = append(out, c)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// wantsWarm says whether any image of the run has warm paths, so the
// snapshot pass hashes every manifest and lockfile for the key.
func (rn *run) wantsWarm() bool {
	if rn.r.cache == nil {
		return false
	}
	for _, img := range rn.images {
		if len(warmPaths(img)) > 0 {
			return true
		}
	}
	return false
}

// warmKey keys the warm state by the owner, the image, its warm paths and
// the content of every manifest and lockfile in the snapshot.
func (rn *run) warmKey(img ImageInfo, paths []string) string {
	h := sha256.New()
	w := func(parts ...string) {
		for _, p := range parts {
			fmt.Fprintf(h, "%d:%s\n", len(p), p)
		}
	}
	w("greenlight-warm-v1", rn.owner(), img.ID)
	w(append([]string{"paths"}, paths...)...)
	for _, f := range slices.Sorted(maps.Keys(rn.snap.cache.hashes)) {
		if workspace.InstallFile(f) {
			w("file", f, rn.snap.cache.hashes[f])
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// restoreWarm gives a new box the warm state of its image: restored when
// the cache has it, to be saved at the trust point when it has not.
func (rn *run) restoreWarm(ctx context.Context, b *box) {
	paths := warmPaths(b.image)
	if rn.r.cache == nil || len(paths) == 0 {
		return
	}
	ws := &warmState{paths: paths, key: rn.warmKey(b.image, paths), clean: true, compile: warmCompileCmd(b.image)}
	b.warm = ws
	if b.stage != nil && b.stage.warmKey == ws.key {
		return // restored while the box was staged (stage.go)
	}
	start := time.Now()
	rc, ok, err := rn.r.cache.Get(ws.key)
	switch {
	case err != nil:
		rn.log.Warn("a warm build state entry failed verification and was evicted", zap.Error(err))
		ws.note = fmt.Sprintf("warm build state %s failed verification and was evicted (%s); building cold", shortKey(ws.key), clip(err.Error()))
		return
	case !ok:
		ws.pending = true
		return
	}
	defer rc.Close()
	if err := rn.restoreTree(ctx, b, rc, HomeDir); err != nil {
		rn.log.Warn("restoring the warm build state failed; evicting the entry", zap.Error(err))
		ws.note = fmt.Sprintf("warm build state %s could not be restored (%s); evicted it, building cold", shortKey(ws.key), clip(err.Error()))
		if rerr := rn.r.cache.Remove(ws.key); rerr != nil {
			rn.log.Error("evicting a warm build state entry failed", zap.Error(rerr))
		}
		if cerr := rn.cleanTree(ctx, b, HomeDir, paths); cerr != nil {
			rn.log.Warn("removing a partial warm build state failed", zap.Error(cerr))
		}
		return
	}
	ws.note = fmt.Sprintf("warm build state restored (%s): %s in %s", shortKey(ws.key),
		strings.Join(paths, ", "), time.Since(start).Round(time.Millisecond))
}

// takeNotes returns the box's warm state and staging messages once.
func (b *box) takeNotes() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var n string
	if b.stage != nil && !b.stageNoted {
		n, b.stageNoted = stagedNote(b.stage), true
	}
	if b.warm != nil {
		n = strings.TrimSpace(n + "\n" + b.warm.note)
		b.warm.note = ""
	}
	return n
}

// warmBefore is called before a batch runs in b: the trust point is
// reached when a step of the batch is not toolchain-only.
func (rn *run) warmBefore(ctx context.Context, b *box, batch []int) {
	for _, i := range batch {
		if !rn.req.Steps[i].ToolchainOnly {
			rn.saveWarm(ctx, b)
			return
		}
	}
}

// warmAfter is called after a batch ran in b: a step that did not exit by
// itself leaves the state unsaved for good (a cut-off write, a build that
// died half way: timed out, killed, canceled, not run). One that exited
// with a failure does not: a vet or a secret scan with findings, a build
// error, all ran only the toolchain, whose cache writes are complete
// (without this a module with one advisory finding never kept its state).
func (rn *run) warmAfter(b *box, batch []int) {
	if b.warm == nil {
		return
	}
	for _, i := range batch {
		if st := rn.results[i].Status; (st != StatusOK && st != StatusFailed) || !rn.req.Steps[i].ToolchainOnly {
			b.warm.clean = false
		} else {
			b.warm.built = true
			b.warm.ranIn(&rn.req.Steps[i])
		}
	}
}

// saveWarm saves b's warm state at its trust point when this run is to
// save it (a miss) and everything before was toolchain-only and OK; the
// message goes to the log of the next step in the box.
func (rn *run) saveWarm(ctx context.Context, b *box) {
	ws := b.warm
	if ws == nil || !ws.pending {
		return
	}
	ws.pending = false
	if !ws.clean || !ws.built || b.killed() != "" {
		return
	}
	compiled, ok := rn.warmCompile(ctx, b)
	if !ok || b.killed() != "" {
		return
	}
	start := time.Now()
	err := rn.saveTree(ctx, b, ws.key, HomeDir, ws.paths)
	msg := fmt.Sprintf("warm build state saved (%s) in %s%s", shortKey(ws.key), time.Since(start).Round(time.Millisecond), compiled)
	if err != nil {
		rn.log.Info("warm build state not saved", zap.Error(err))
		msg = "warm build state not saved: " + clip(err.Error())
	}
	b.mu.Lock()
	ws.note = strings.TrimSpace(ws.note + "\n" + msg)
	b.mu.Unlock()
}

// saveWarmAtEnd saves the warm state of boxes whose steps were all
// toolchain-only (a module without tests).
func (rn *run) saveWarmAtEnd(ctx context.Context) {
	rn.mu.Lock()
	boxes := slices.Clone(rn.boxes)
	rn.mu.Unlock()
	for _, b := range boxes {
		rn.saveWarm(ctx, b)
	}
}
