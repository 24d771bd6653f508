package store

import (
	"bytes"
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Recording is one recorded provider exchange of a run, kept so that the
// replay provider can play a session back. The store does not interpret
// Data; the provider package owns its format.
type Recording struct {
	Seq  uint64
	Data []byte
}

// PutRecording stores exchange number seq of a run's provider session,
// replacing an earlier one with the same seq. The run must exist: recordings
// are pruned with it.
func (s *Store) PutRecording(ctx context.Context, runID string, seq uint64, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := open(tx)
		if b.runs.Get([]byte(runID)) == nil {
			return ErrNotFound
		}
		rb, err := b.recordings.CreateBucketIfNotExists([]byte(runID))
		if err != nil {
			return err
		}
		return rb.Put(seqKey(seq), data)
	})
	if err != nil {
		return fmt.Errorf("put recording %d of run %s: %w", seq, runID, err)
	}
	return nil
}

// Recordings returns a run's recorded exchanges in seq order; an unknown run
// is ErrNotFound, a run without recordings an empty slice.
func (s *Store) Recordings(ctx context.Context, runID string) ([]Recording, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []Recording
	err := s.db.View(func(tx *bolt.Tx) error {
		b := open(tx)
		if b.runs.Get([]byte(runID)) == nil {
			return ErrNotFound
		}
		rb := b.recordings.Bucket([]byte(runID))
		if rb == nil {
			return nil
		}
		return rb.ForEach(func(k, v []byte) error {
			out = append(out, Recording{Seq: decodeSeq(k), Data: bytes.Clone(v)})
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("recordings of run %s: %w", runID, err)
	}
	return out, nil
}
