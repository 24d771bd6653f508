package loopsvc

import (
	"context"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

// pruner applies the retention policy: finished runs outside it are deleted
// with their events, patches and recordings, and then the blobs only they
// referenced (snapshots, logs), unless a blob was written again since the
// pruning began (a new run uploading the same snapshot).
type pruner struct {
	runs  *store.Store
	blobs *blob.Store
	ret   store.Retention
	log   *zap.Logger
}

// enabled reports whether the policy limits anything.
func (p *pruner) enabled() bool { return p.ret.MaxAge > 0 || p.ret.KeepRuns > 0 }

// once runs one pass and returns what it deleted.
func (p *pruner) once(ctx context.Context) (store.PruneReport, int, error) {
	if !p.enabled() {
		return store.PruneReport{}, 0, nil
	}
	start := time.Now()
	rep, err := p.runs.Prune(ctx, p.ret)
	if err != nil {
		return rep, 0, fmt.Errorf("prune runs: %w", err)
	}
	if len(rep.Digests) == 0 {
		return rep, 0, nil
	}
	candidates := make(map[string]bool, len(rep.Digests))
	for _, d := range rep.Digests {
		candidates[d.GetHash()] = true
	}
	var victims []blob.Digest
	err = p.blobs.Walk(ctx, func(bi blob.BlobInfo) error {
		if candidates[bi.Digest.Hash] && bi.ModTime.Before(start) {
			victims = append(victims, bi.Digest)
		}
		return nil
	})
	if err != nil {
		return rep, 0, fmt.Errorf("prune blobs: %w", err)
	}
	deleted := 0
	for _, d := range victims {
		if err := p.blobs.Delete(ctx, d); err != nil {
			p.log.Warn("deleting an unreferenced blob failed", zap.Stringer("digest", d), zap.Error(err))
			continue
		}
		deleted++
	}
	return rep, deleted, nil
}

// run prunes now and then every period until ctx ends (period 0: once).
func (p *pruner) run(ctx context.Context, period time.Duration) {
	if !p.enabled() {
		return
	}
	for {
		rep, blobs, err := p.once(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			p.log.Warn("retention pass failed", zap.Error(err))
		case len(rep.Runs) > 0:
			p.log.Info("retention pass", zap.Int("runs_deleted", len(rep.Runs)), zap.Int("events_deleted", rep.Events),
				zap.Int("blobs_deleted", blobs))
		}
		if period <= 0 {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(period):
		}
	}
}
