package sandbox

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/workspace"
)

// Blobs is what the sandbox needs from the blob store (a local *blob.Store
// or a gRPC *blob.Client).
type Blobs interface {
	Open(ctx context.Context, d blob.Digest) (io.ReadCloser, error)
	Put(ctx context.Context, r io.Reader) (blob.Digest, error)
}

// snapshotInfo is what the validation pass learned about a snapshot.
type snapshotInfo struct {
	stats workspace.Stats
	// cache holds the digests of the files that key the dependency cache
	// and the cache paths the snapshot already holds.
	cache *cacheScan
}

// snapshotLimits are the validation limits: the workspace package's
// defaults, with the total bounded by the workspace size.
func snapshotLimits(lim Limits) workspace.Limits {
	l := workspace.DefaultLimits()
	l.MaxBytes = min(l.MaxBytes, lim.WorkspaceBytes)
	l.MaxFileBytes = min(l.MaxFileBytes, lim.WorkspaceBytes)
	return l
}

// inspectSnapshot validates the whole snapshot before any container is
// touched (streaming: the tar is never held in memory) and shows every
// entry to the dependency cache's scan, hashing the files it wants. A bad
// entry is an ErrInvalidSnapshot naming it.
func inspectSnapshot(ctx context.Context, blobs Blobs, d blob.Digest, lim workspace.Limits, scan *cacheScan) (snapshotInfo, error) {
	rc, err := openSnapshot(ctx, blobs, d)
	if err != nil {
		return snapshotInfo{}, err
	}
	defer rc.Close()
	vr := workspace.NewValidatingReader(rc, lim)
	info := snapshotInfo{cache: scan}
	tr := tar.NewReader(vr)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return snapshotInfo{}, snapshotError(err)
		}
		name := entryPath(hdr.Name)
		if !scan.observe(name, hdr.Typeflag == tar.TypeSymlink) {
			continue
		}
		if hdr.Typeflag != tar.TypeReg {
			// A linked manifest keys by where it points (the target is
			// keyed too when it is an install file itself).
			scan.record(name, "link:"+hdr.Linkname)
			continue
		}
		h := sha256.New()
		if _, err := io.Copy(h, tr); err != nil {
			return snapshotInfo{}, snapshotError(err)
		}
		scan.record(name, hex.EncodeToString(h.Sum(nil)))
	}
	// Drain the trailer through the validator too.
	if _, err := io.Copy(io.Discard, vr); err != nil {
		return snapshotInfo{}, snapshotError(err)
	}
	info.stats = vr.Stats()
	return info, nil
}

// openSnapshot opens the snapshot blob, mapping a missing one.
func openSnapshot(ctx context.Context, blobs Blobs, d blob.Digest) (io.ReadCloser, error) {
	rc, err := blobs.Open(ctx, d)
	if errors.Is(err, blob.ErrNotFound) {
		return nil, fmt.Errorf("%w: %s is not in the blob store: upload it with BlobService.Write first", ErrSnapshotNotFound, d)
	}
	if err != nil {
		return nil, fmt.Errorf("opening snapshot %s: %w", d, err)
	}
	return rc, nil
}

// snapshotError wraps validation errors (which name the entry) as
// ErrInvalidSnapshot; anything else (a failing blob store) stays as is.
func snapshotError(err error) error {
	var ee *workspace.EntryError
	if errors.As(err, &ee) || errors.Is(err, workspace.ErrCompressed) || errors.Is(err, workspace.ErrMalformed) ||
		errors.Is(err, tar.ErrHeader) {
		return fmt.Errorf("%w: %w", ErrInvalidSnapshot, err)
	}
	return fmt.Errorf("reading snapshot: %w", err)
}

// entryPath normalizes a tar entry name to a clean workspace-relative path.
func entryPath(name string) string {
	return path.Clean(strings.TrimPrefix(name, "./"))
}

// copySnapshot streams the snapshot into the box's workspace: one
// uncompressed tar stream, validated again on the way, unpacked by tar
// inside the container as the sandbox user (so nothing on the host ever
// interprets it, and no decompressor of the image ever runs). The same
// process then makes the workspace a git repository (checkout.go): one
// exec instead of two on every run's critical path.
func (rn *run) copySnapshot(ctx context.Context, b *box, image string) error {
	rc, err := openSnapshot(ctx, rn.r.blobs, rn.req.Snapshot)
	if err != nil {
		return err
	}
	defer rc.Close()
	vr := workspace.NewValidatingReader(rc, snapshotLimits(rn.lim))
	mode := "checkout"
	if !checkoutFits(rn.snap.stats.Bytes, rn.lim.WorkspaceBytes) {
		mode = ""
		rn.noteImage(image, fmt.Sprintf("the workspace is not a git repository: the snapshot (%d MiB) leaves no room for "+
			"its git objects in the %d MiB workspace", rn.snap.stats.Bytes>>20, rn.lim.WorkspaceBytes>>20))
	}
	// Bounded by the run's deadline, as the copy always was: a checkout
	// cut short by its own timer would fail the box, where a failed one
	// only notes that the workspace is no repository.
	stderr := &capBuffer{max: 4 << 10}
	start := time.Now()
	res, err := rn.r.exec(ctx, b, ExecSpec{
		Cmd: unpackCmd(b.stageExclude(), mode), User: SandboxUser, WorkDir: WorkspaceDir, Env: checkoutEnv(),
		Stdin: vr, Stdout: io.Discard, Stderr: stderr,
	})
	why := strings.TrimSpace(validUTF8(stderr.buf.Bytes()))
	switch {
	case err != nil:
		var ee *workspace.EntryError
		if errors.As(err, &ee) {
			return snapshotError(err)
		}
		return fmt.Errorf("unpacking the snapshot into the sandbox: %w", err)
	case res.code == unpackFailed:
		return fmt.Errorf("unpacking the snapshot into the sandbox: tar exited with an error: %s", why)
	}
	if mode != "" {
		rn.checkedOut(image, res.code, why, time.Since(start))
	}
	return nil
}
