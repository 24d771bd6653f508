package store

import (
	"context"
	"fmt"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	bolt "go.etcd.io/bbolt"
	"google.golang.org/protobuf/proto"
)

// Tenancy. A run belongs to the owner that created it (the identity the
// gateway authenticated): run_owners/<run id> → owner. A blob is open to
// an owner that uploaded it or whose run refers to it:
// blob_grants/<hash><owner> → "" (the hash is always 64 characters, so no
// separator is needed). Grants for a run's blobs are written in the same
// transaction as the record or event that names them, so a run's owner can
// read a step's log as soon as StepFinished is stored. A run stored
// without an owner (before tenancy, or by a caller that named none) has
// no entry and its blobs no grants: only callers that see everything
// (operators, greenlight's own services) see them.

// viewerKey carries the owner whose runs reads through a context show.
type viewerKey struct{}

// WithViewer returns ctx through which GetRun, ListRuns and Events show
// only runs owned by owner: any other run is ErrNotFound (GetRun, Events)
// or left out (ListRuns), exactly as if it did not exist. An empty owner
// sees no run at all. Without a viewer every run is visible.
func WithViewer(ctx context.Context, owner string) context.Context {
	return context.WithValue(ctx, viewerKey{}, owner)
}

// viewerOf returns the viewer of ctx and whether there is one.
func viewerOf(ctx context.Context) (string, bool) {
	v, ok := ctx.Value(viewerKey{}).(string)
	return v, ok
}

// visible reports whether a run owned by owner is shown to ctx's viewer.
// A run without an owner is shown to no viewer.
func visible(ctx context.Context, owner string) bool {
	v, ok := viewerOf(ctx)
	return !ok || (owner != "" && owner == v)
}

// runOwner returns the owner recorded for a run ("" for none).
func runOwner(b buckets, id string) string {
	return string(b.runOwners.Get([]byte(id)))
}

// checkVisible is ErrNotFound for a run ctx's viewer may not see.
func checkVisible(ctx context.Context, b buckets, id string) error {
	if !visible(ctx, runOwner(b, id)) {
		return ErrNotFound
	}
	return nil
}

// RunOwner returns the owner of run id ("" when none was recorded); an
// unknown run is ErrNotFound.
func (s *Store) RunOwner(ctx context.Context, id string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	var owner string
	err := s.db.View(func(tx *bolt.Tx) error {
		b := open(tx)
		if b.runs.Get([]byte(id)) == nil {
			return ErrNotFound
		}
		owner = runOwner(b, id)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("owner of run %s: %w", id, err)
	}
	return owner, nil
}

// GrantBlob opens the blob with hash to owner (who uploaded it).
func (s *Store) GrantBlob(ctx context.Context, owner, hash string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if owner == "" || len(hash) != hashLen {
		return fmt.Errorf("grant blob %q to %q: %w", hash, owner, ErrInvalidArgument)
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		return grant(open(tx), owner, hash)
	})
	if err != nil {
		return fmt.Errorf("grant blob %s: %w", hash, err)
	}
	return nil
}

// BlobGranted reports whether the blob with hash is open to owner.
func (s *Store) BlobGranted(ctx context.Context, owner, hash string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if owner == "" || len(hash) != hashLen {
		return false, nil
	}
	var ok bool
	err := s.db.View(func(tx *bolt.Tx) error {
		ok = open(tx).blobGrants.Get(grantKey(owner, hash)) != nil
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("blob grant %s: %w", hash, err)
	}
	return ok, nil
}

// grantKey is a blob_grants key.
func grantKey(owner, hash string) []byte {
	return append([]byte(hash), owner...)
}

// grant writes one grant.
func grant(b buckets, owner, hash string) error {
	return b.blobGrants.Put(grantKey(owner, hash), []byte{})
}

// grantRunBlobs opens to the run's owner every blob m (its record, one of
// its events or patch outcomes) refers to.
func grantRunBlobs(b buckets, runID string, m proto.Message) error {
	owner := runOwner(b, runID)
	if owner == "" {
		return nil
	}
	found := map[string]*glv1.Digest{}
	collectDigests(m, found)
	for hash := range found {
		if len(hash) != hashLen {
			continue
		}
		if err := grant(b, owner, hash); err != nil {
			return err
		}
	}
	return nil
}
