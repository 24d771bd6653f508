package store

import (
	"context"
	"fmt"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	bolt "go.etcd.io/bbolt"
	"google.golang.org/protobuf/proto"
)

// PutPatch stores the outcome of a run's patch attempt, replacing an earlier
// outcome of the same attempt (a patch applied, then rolled back). GetRun
// returns outcomes in attempt order in Run.patches.
func (s *Store) PutPatch(ctx context.Context, runID string, outcome *glv1.PatchOutcome) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if outcome == nil {
		return fmt.Errorf("put patch for run %s: nil outcome: %w", runID, ErrInvalidArgument)
	}
	val, err := proto.Marshal(outcome)
	if err != nil {
		return fmt.Errorf("put patch for run %s: marshal: %w", runID, err)
	}
	err = s.db.Update(func(tx *bolt.Tx) error {
		b := open(tx)
		if b.runs.Get([]byte(runID)) == nil {
			return ErrNotFound
		}
		pb, err := b.patches.CreateBucketIfNotExists([]byte(runID))
		if err != nil {
			return err
		}
		if err := pb.Put(attemptKey(outcome.GetAttempt()), val); err != nil {
			return err
		}
		return grantRunBlobs(b, runID, outcome)
	})
	if err != nil {
		return fmt.Errorf("put patch attempt %d for run %s: %w", outcome.GetAttempt(), runID, err)
	}
	return nil
}

// loadPatches reads a run's patch outcomes in attempt order.
func loadPatches(b buckets, runID string) ([]*glv1.PatchOutcome, error) {
	pb := b.patches.Bucket([]byte(runID))
	if pb == nil {
		return nil, nil
	}
	var out []*glv1.PatchOutcome
	err := pb.ForEach(func(k, v []byte) error {
		p := &glv1.PatchOutcome{}
		if err := proto.Unmarshal(v, p); err != nil {
			return fmt.Errorf("decode patch %x: %w", k, err)
		}
		out = append(out, p)
		return nil
	})
	return out, err
}
