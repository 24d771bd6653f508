package store

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	bolt "go.etcd.io/bbolt"
	"google.golang.org/protobuf/proto"
)

// pruneChunk bounds the runs deleted or scanned per transaction, so that
// retention never holds the writer (or a long read transaction) for long.
const pruneChunk = 64

// Retention says which finished runs to keep. Zero fields do not limit.
type Retention struct {
	// MaxAge deletes finished runs created longer ago than this.
	MaxAge time.Duration
	// KeepRuns keeps the newest KeepRuns runs (of any status) and deletes
	// finished runs beyond them.
	KeepRuns int
}

// PruneReport says what Prune deleted.
type PruneReport struct {
	// Runs are the deleted run ids, newest first.
	Runs       []string
	Events     int
	Patches    int
	Recordings int
	// Digests are the blobs the deleted runs referenced (snapshots, logs,
	// artifacts) that no remaining run record, event, patch or recording
	// mentions, sorted by hash: candidates for deletion from the blob store.
	// A run created after the scan may reference one again (the same
	// snapshot uploaded anew), so the blob store should only delete blobs
	// not written since Prune started.
	Digests []*glv1.Digest
}

// Prune deletes finished runs outside the retention policy with their
// events, patches and recordings. Unfinished runs are never deleted.
func (s *Store) Prune(ctx context.Context, r Retention) (PruneReport, error) {
	if r.MaxAge < 0 || r.KeepRuns < 0 {
		return PruneReport{}, fmt.Errorf("prune: negative retention %+v: %w", r, ErrInvalidArgument)
	}
	var rep PruneReport
	victims, candidates, err := s.pruneVictims(ctx, r)
	if err != nil {
		return rep, fmt.Errorf("prune: %w", err)
	}
	for chunk := range slices.Chunk(victims, pruneChunk) {
		if err := ctx.Err(); err != nil {
			return rep, fmt.Errorf("prune: %w", err)
		}
		if err := s.db.Update(func(tx *bolt.Tx) error { return deleteRuns(open(tx), chunk, &rep) }); err != nil {
			return rep, fmt.Errorf("prune: delete runs: %w", err)
		}
	}
	if err := s.dropReferenced(ctx, candidates); err != nil {
		return rep, fmt.Errorf("prune: scan references: %w", err)
	}
	rep.Digests = sortedDigests(candidates)
	return rep, nil
}

// victim is a run chosen for deletion.
type victim struct {
	id  string
	key []byte
}

// pruneVictims picks the runs to delete and the digests they reference.
func (s *Store) pruneVictims(ctx context.Context, r Retention) ([]victim, map[string]*glv1.Digest, error) {
	var cutoff time.Time
	if r.MaxAge > 0 {
		cutoff = s.now().Add(-r.MaxAge)
	}
	var victims []victim
	digests := make(map[string]*glv1.Digest)
	err := s.db.View(func(tx *bolt.Tx) error {
		b := open(tx)
		c := b.byCreated.Cursor()
		n := 0
		for k, v := c.Last(); k != nil; k, v = c.Prev() {
			n++
			created, id, ok := createdKeyParts(k)
			if !ok || !Finished(glv1.RunStatus(statusOf(v))) {
				continue
			}
			tooMany := r.KeepRuns > 0 && n > r.KeepRuns
			tooOld := !cutoff.IsZero() && created.Before(cutoff)
			if !tooMany && !tooOld {
				continue
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := runDigests(b, id, digests); err != nil {
				return fmt.Errorf("run %s: %w", id, err)
			}
			victims = append(victims, victim{id: id, key: append([]byte(nil), k...)})
		}
		return nil
	})
	return victims, digests, err
}

// runDigests collects the digests a run's record, patches and events hold.
// Events are decoded only when they contain a hash-like string: most are
// log chunks without any.
func runDigests(b buckets, id string, out map[string]*glv1.Digest) error {
	run, err := loadRun(b, id, true)
	if err != nil {
		return err
	}
	collectDigests(run, out)
	log := b.events.Bucket([]byte(id))
	if log == nil {
		return nil
	}
	return log.ForEach(func(k, v []byte) error {
		if !hasHexRun(v) {
			return nil
		}
		ev := &glv1.RunEvent{}
		if err := proto.Unmarshal(v, ev); err != nil {
			return fmt.Errorf("decode event %x: %w", k, err)
		}
		collectDigests(ev, out)
		return nil
	})
}

// deleteRuns removes runs and everything stored under their ids.
func deleteRuns(b buckets, victims []victim, rep *PruneReport) error {
	for _, v := range victims {
		id := []byte(v.id)
		if b.runs.Get(id) == nil {
			continue // already gone
		}
		if log := b.events.Bucket(id); log != nil {
			rep.Events += int(log.Sequence())
			if err := b.events.DeleteBucket(id); err != nil {
				return err
			}
		}
		n, err := deleteChild(b.patches, id)
		if err != nil {
			return err
		}
		rep.Patches += n
		if n, err = deleteChild(b.recordings, id); err != nil {
			return err
		}
		rep.Recordings += n
		if err := b.byCreated.Delete(v.key); err != nil {
			return err
		}
		if err := b.runs.Delete(id); err != nil {
			return err
		}
		if err := b.runOwners.Delete(id); err != nil {
			return err
		}
		rep.Runs = append(rep.Runs, v.id)
	}
	return nil
}

// deleteChild deletes a nested bucket if present and returns its key count.
func deleteChild(parent *bolt.Bucket, name []byte) (int, error) {
	child := parent.Bucket(name)
	if child == nil {
		return 0, nil
	}
	n := child.Stats().KeyN
	return n, parent.DeleteBucket(name)
}

// dropReferenced removes from candidates every hash that a remaining run's
// record, events, patches or recordings mention, scanning raw bytes a few
// runs per read transaction.
func (s *Store) dropReferenced(ctx context.Context, candidates map[string]*glv1.Digest) error {
	if len(candidates) == 0 {
		return nil
	}
	var ids []string
	err := s.db.View(func(tx *bolt.Tx) error {
		return open(tx).runs.ForEach(func(k, _ []byte) error {
			ids = append(ids, string(k))
			return nil
		})
	})
	if err != nil {
		return err
	}
	drop := func(hash string) { delete(candidates, hash) }
	for chunk := range slices.Chunk(ids, pruneChunk) {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := s.db.View(func(tx *bolt.Tx) error {
			b := open(tx)
			for _, id := range chunk {
				scanRunBytes(b, []byte(id), drop)
			}
			return nil
		})
		if err != nil || len(candidates) == 0 {
			return err
		}
	}
	return nil
}

// scanRunBytes feeds every hash-like string stored under a run id to fn.
func scanRunBytes(b buckets, id []byte, fn func(string)) {
	hexRuns(b.runs.Get(id), fn)
	for _, parent := range []*bolt.Bucket{b.events, b.patches, b.recordings} {
		if child := parent.Bucket(id); child != nil {
			_ = child.ForEach(func(_, v []byte) error {
				hexRuns(v, fn)
				return nil
			})
		}
	}
}

// sortedDigests returns the map's digests ordered by hash.
func sortedDigests(m map[string]*glv1.Digest) []*glv1.Digest {
	out := make([]*glv1.Digest, 0, len(m))
	for _, d := range m {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GetHash() < out[j].GetHash() })
	return out
}
