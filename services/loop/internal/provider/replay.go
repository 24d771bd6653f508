package provider

import (
	"context"
	"fmt"
	"sync"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Replay plays back a recorded session in order, deterministically. Each
// request must be the one recorded at that point (same attempt, command,
// workdir, exit code and failure locations), else ErrReplayDiverged; a
// request past the last record is ErrReplayExhausted.
type Replay struct {
	store RecordingStore
	runID string

	mu     sync.Mutex
	loaded bool
	recs   []recording
	next   int
}

// NewReplay plays back the session recorded under runID. The records are
// read on the first Propose.
func NewReplay(store RecordingStore, runID string) *Replay {
	return &Replay{store: store, runID: runID}
}

// Propose returns the next recorded proposal.
func (r *Replay) Propose(ctx context.Context, req *glv1.PatchRequest) (Proposal, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.load(ctx); err != nil {
		return Proposal{}, err
	}
	if r.next >= len(r.recs) {
		return Proposal{}, fmt.Errorf("replay of run %s: %w: %d proposal(s) were recorded and %s asks for one more",
			r.runID, ErrReplayExhausted, len(r.recs), describe(req))
	}
	rec := r.recs[r.next]
	if rec.Attempt != req.GetAttempt() || rec.Key != requestKey(req) {
		return Proposal{}, fmt.Errorf("replay of run %s: %w: proposal %d was recorded for %s, but the replay asks for %s",
			r.runID, ErrReplayDiverged, r.next+1, rec.Request, describe(req))
	}
	r.next++
	return rec.proposal(), nil
}

// load reads and decodes the records once.
func (r *Replay) load(ctx context.Context) error {
	if r.loaded {
		return nil
	}
	if r.runID == "" {
		return fmt.Errorf("%w: the replay provider needs a recording id", ErrConfig)
	}
	data, err := r.store.RecordingData(ctx, r.runID)
	if err != nil {
		return fmt.Errorf("replay of run %s: %w", r.runID, err)
	}
	for i, d := range data {
		rec, err := decodeRecording(d)
		if err != nil {
			return fmt.Errorf("replay of run %s, record %d: %w", r.runID, i+1, err)
		}
		r.recs = append(r.recs, rec)
	}
	r.loaded = true
	return nil
}
