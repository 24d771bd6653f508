package patch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/greenlight-dev/greenlight/pkg/workspace"
)

// Options configures Apply.
type Options struct {
	// Guardrails are checked before anything is unpacked.
	Guardrails Guardrails
	// Limits bound the snapshot when unpacked and the patched tree when
	// re-packed; zero fields take workspace.DefaultLimits.
	Limits workspace.Limits
	// TempDir is where the work directory is created; empty means the
	// system's temporary directory.
	TempDir string
}

// Apply applies a patch to a fresh copy of a snapshot and packs the result
// into a new snapshot.
//
// The snapshot (an uncompressed tar, read once and never modified) is
// unpacked with workspace.Unpack into a new temporary directory; the
// patch is checked against the guardrails, then against the unpacked tree
// (no path may be or pass through a symlink there); every file's hunks are
// applied in memory with exact context before anything is written; writes
// go through an os.Root with O_NOFOLLOW after a fresh Lstat of each parent;
// and the tree is re-packed deterministically with workspace.Pack. The
// caller owns the Result and must Close it to remove the new tar.
//
// Errors: a *Refusal (ErrRefused), an *ApplyError (ErrDoesNotApply),
// ErrSnapshot when the snapshot cannot be unpacked, ErrRepack when the
// patched tree cannot be packed faithfully, or the context's error.
func Apply(ctx context.Context, snapshot io.Reader, p *Patch, opts Options) (res *Result, err error) {
	if err := checkShape(p); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(opts.TempDir, "greenlight-patch-*")
	if err != nil {
		return nil, fmt.Errorf("apply patch: %w", err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	tree := filepath.Join(dir, "tree")
	if _, err := workspace.Unpack(ctx, snapshot, tree, opts.Limits); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("apply patch: %w", ctx.Err())
		}
		return nil, fmt.Errorf("%w: %w", ErrSnapshot, err)
	}
	// The guardrails judge the paths as they will be applied, once a
	// directory prefix the workspace does not have is stripped.
	if err := stripTreePrefix(tree, p); err != nil {
		return nil, err
	}
	if err := Check(p, opts.Guardrails); err != nil {
		return nil, err
	}
	changes, stats, err := patchTree(tree, p, opts.Guardrails)
	if err != nil {
		return nil, err
	}
	res = &Result{Format: p.Format, Stats: stats, dir: dir, TarPath: filepath.Join(dir, "snapshot.tar")}
	if res.Digest, err = repack(ctx, tree, res.TarPath, opts.Limits); err != nil {
		return nil, err
	}
	if err := os.RemoveAll(tree); err != nil {
		return nil, fmt.Errorf("apply patch: removing work tree: %w", err)
	}
	res.Diff = render(changes)
	return res, nil
}

// patchTree checks the patch against the unpacked tree, computes every
// file's new content, enforces the changed-line cap on the real counts,
// and writes the changes.
func patchTree(tree string, p *Patch, g Guardrails) ([]change, Stats, error) {
	root, err := os.OpenRoot(tree)
	if err != nil {
		return nil, Stats{}, fmt.Errorf("apply patch: %w", err)
	}
	defer root.Close()
	var (
		plans   []plan
		changes []change
		stats   Stats
	)
	for _, f := range p.Files {
		pl, err := planFile(root, f)
		if err != nil {
			return nil, Stats{}, err
		}
		if r := checkPlanConfig(pl, g); r != nil {
			return nil, Stats{}, r
		}
		if r := checkPlanDependencies(pl, g); r != nil {
			return nil, Stats{}, r
		}
		if r := auditPlan(pl); r != nil && !g.Trusted {
			return nil, Stats{}, r
		}
		plans = append(plans, pl)
		changes = append(changes, pl.change)
		stats.add(pl.change)
	}
	if r := checkLines(stats.LinesAdded+stats.LinesRemoved, g.withDefaults()); r != nil {
		return nil, Stats{}, r
	}
	if err := writePlans(root, plans); err != nil {
		return nil, Stats{}, err
	}
	return changes, stats, nil
}

// repack packs the patched tree to dst verbatim (no exclusions, no
// .gitignore: a snapshot packed from git may hold tracked ignored files) and
// double-checks that nothing in the tree was left out.
func repack(ctx context.Context, tree, dst string, lim workspace.Limits) (workspace.Digest, error) {
	d, _, err := workspace.PackToFile(ctx, tree, dst, workspace.PackOptions{Limits: lim, Verbatim: true})
	if err != nil {
		if ctx.Err() != nil {
			return workspace.Digest{}, fmt.Errorf("apply patch: %w", ctx.Err())
		}
		return workspace.Digest{}, fmt.Errorf("%w: %w", ErrRepack, err)
	}
	missing, err := leftOut(tree, dst)
	if err != nil {
		return workspace.Digest{}, fmt.Errorf("%w: %w", ErrRepack, err)
	}
	if len(missing) > 0 {
		return workspace.Digest{}, fmt.Errorf("%w: packing the patched tree would leave out %d file(s) of the snapshot, first %q (ignored or excluded when walking)",
			ErrRepack, len(missing), missing[0])
	}
	return d, nil
}

// leftOut lists the files and symlinks of tree that the tar at tarPath
// does not hold.
func leftOut(tree, tarPath string) ([]string, error) {
	f, err := os.Open(tarPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	packed, err := tarNames(f)
	if err != nil {
		return nil, err
	}
	var missing []string
	err = filepath.WalkDir(tree, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(tree, p)
		if err != nil {
			return err
		}
		if rel = filepath.ToSlash(rel); !packed[rel] {
			missing = append(missing, rel)
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	return missing, err
}
