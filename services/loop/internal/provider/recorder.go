package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Recorder wraps a provider and records each proposal it makes, so that
// Replay can play the session back. Failed proposals are not recorded.
type Recorder struct {
	inner Provider
	store RecordingStore
	runID string

	mu  sync.Mutex
	seq uint64
}

// NewRecorder records inner's proposals under runID.
func NewRecorder(inner Provider, store RecordingStore, runID string) *Recorder {
	return &Recorder{inner: inner, store: store, runID: runID}
}

// Propose asks the wrapped provider and records its answer. A recording
// that cannot be stored is an error: a run asked to record must not
// silently produce an incomplete session.
func (r *Recorder) Propose(ctx context.Context, req *glv1.PatchRequest) (Proposal, error) {
	p, err := r.inner.Propose(ctx, req)
	if err != nil {
		return p, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	data, err := json.Marshal(newRecording(r.seq+1, req, p))
	if err != nil {
		return Proposal{}, fmt.Errorf("recording proposal: %w", err)
	}
	if err := r.store.PutRecording(ctx, r.runID, r.seq+1, data); err != nil {
		return Proposal{}, fmt.Errorf("recording proposal %d of run %s: %w", r.seq+1, r.runID, err)
	}
	r.seq++
	return p, nil
}
