package engine

import (
	"context"
	"errors"
	"fmt"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/workspace"
)

// checkSnapshot refuses a snapshot that is missing, malformed, not in the
// blob store or not a valid workspace tar, before anything is stored. The
// tar is read once here (the executor validates it again while copying it
// into the sandbox): a garbage upload must not become a run.
func (e *Engine) checkSnapshot(ctx context.Context, p *glv1.Digest) (blob.Digest, error) {
	if p == nil || (p.GetHash() == "" && p.GetSizeBytes() == 0) {
		return blob.Digest{}, fmt.Errorf("%w: snapshot digest is missing: pack the workspace into an uncompressed tar, "+
			"upload it with BlobService.Write and pass the digest it returns", ErrInvalidArgument)
	}
	d, err := blob.DigestFromProto(p)
	if err != nil {
		return blob.Digest{}, fmt.Errorf("%w: snapshot: %w", ErrInvalidArgument, err)
	}
	size, found, err := e.d.Blobs.Stat(ctx, d)
	if err != nil {
		return blob.Digest{}, fmt.Errorf("snapshot %s: stat: %w", d, err)
	}
	if !found || size != d.Size {
		return blob.Digest{}, fmt.Errorf("%w: snapshot %s is not in the blob store: upload the tar with BlobService.Write first",
			ErrInvalidArgument, d)
	}
	r, err := e.d.Blobs.Open(ctx, d)
	if err != nil {
		return blob.Digest{}, fmt.Errorf("snapshot %s: open: %w", d, err)
	}
	defer r.Close()
	if _, err := workspace.Validate(r, e.cfg.Snapshot); err != nil {
		if ctx.Err() != nil {
			return blob.Digest{}, ctx.Err()
		}
		if isWorkspaceRefusal(err) {
			return blob.Digest{}, fmt.Errorf("%w: snapshot %s is not a usable workspace tar: %w", ErrInvalidArgument, d, err)
		}
		return blob.Digest{}, fmt.Errorf("snapshot %s: read: %w", d, err)
	}
	return d, nil
}

// isWorkspaceRefusal reports whether err is the tar's fault, not ours.
func isWorkspaceRefusal(err error) bool {
	for _, s := range []error{workspace.ErrUnsafeEntry, workspace.ErrTooLarge, workspace.ErrTooManyFiles,
		workspace.ErrCompressed, workspace.ErrMalformed} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}
