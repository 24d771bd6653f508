package provider

import (
	"context"

	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

// StoreRecordings adapts the bbolt run store to RecordingStore.
func StoreRecordings(s *store.Store) RecordingStore { return storeRecordings{s} }

// storeRecordings is the adapter.
type storeRecordings struct{ s *store.Store }

// PutRecording stores one record.
func (a storeRecordings) PutRecording(ctx context.Context, runID string, seq uint64, data []byte) error {
	return a.s.PutRecording(ctx, runID, seq, data)
}

// RecordingData returns a run's records in seq order.
func (a storeRecordings) RecordingData(ctx context.Context, runID string) ([][]byte, error) {
	recs, err := a.s.Recordings(ctx, runID)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(recs))
	for i, r := range recs {
		out[i] = r.Data
	}
	return out, nil
}
