package provider

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

// memStore is an in-memory RecordingStore.
type memStore struct {
	mu   sync.Mutex
	recs map[string]map[uint64][]byte
}

func newMemStore() *memStore { return &memStore{recs: map[string]map[uint64][]byte{}} }

func (m *memStore) PutRecording(_ context.Context, runID string, seq uint64, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.recs[runID] == nil {
		m.recs[runID] = map[uint64][]byte{}
	}
	m.recs[runID][seq] = append([]byte(nil), data...)
	return nil
}

func (m *memStore) RecordingData(_ context.Context, runID string) ([][]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out [][]byte
	for seq := uint64(1); m.recs[runID][seq] != nil; seq++ {
		out = append(out, m.recs[runID][seq])
	}
	return out, nil
}

// scripted is a provider answering from a list.
type scripted struct {
	answers []Proposal
	n       int
}

func (s *scripted) Propose(context.Context, *glv1.PatchRequest) (Proposal, error) {
	if s.n >= len(s.answers) {
		return Proposal{}, errors.New("script exhausted")
	}
	s.n++
	return s.answers[s.n-1], nil
}

// bboltStore opens a real run store with one run.
func bboltStore(t *testing.T, runID string) RecordingStore {
	s, err := store.Open(filepath.Join(t.TempDir(), "runs.db"), store.Options{NoSync: true})
	must(t, err)
	t.Cleanup(func() { s.Close() })
	must(t, s.CreateRun(context.Background(), &glv1.Run{Id: runID, Kind: glv1.RunKind_RUN_KIND_FIX}))
	return StoreRecordings(s)
}

// TestRecordReplay records three proposals and replays them, in memory
// and through the real bbolt run store.
func TestRecordReplay(t *testing.T) {
	stores := map[string]func(*testing.T, string) RecordingStore{
		"memory": func(*testing.T, string) RecordingStore { return newMemStore() },
		"bbolt":  bboltStore,
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			rs := open(t, "run-rec")
			answers := []Proposal{
				{Patch: calcPatch, Usage: &glv1.Usage{PromptTokens: 100, CompletionTokens: 20, Cost: 0.01}},
				{Patch: "*** Begin Patch\n*** Update File: calc.py\n@@\n-x\n+y\n*** End Patch\n"},
				{GiveUp: true},
			}
			rec := NewRecorder(&scripted{answers: answers}, rs, "run-rec")
			var recorded []Proposal
			for i := int32(1); i <= 3; i++ {
				p, err := rec.Propose(context.Background(), request(i))
				must(t, err)
				recorded = append(recorded, p)
			}
			if !reflect.DeepEqual(recorded, answers) {
				t.Fatalf("recorder changed the proposals: %+v", recorded)
			}

			replay := NewReplay(rs, "run-rec")
			for i := int32(1); i <= 3; i++ {
				req := request(i)
				req.RunId, req.LogTail = "run-replay", "different timings 0.05s\n" // not part of the identity
				p, err := replay.Propose(context.Background(), req)
				must(t, err)
				if p.Patch != answers[i-1].Patch || p.GiveUp != answers[i-1].GiveUp ||
					p.Usage.GetCost() != answers[i-1].Usage.GetCost() || p.Usage.GetPromptTokens() != answers[i-1].Usage.GetPromptTokens() {
					t.Errorf("replayed %d: %+v, want %+v", i, p, answers[i-1])
				}
			}
			_, err := replay.Propose(context.Background(), request(4))
			if !errors.Is(err, ErrReplayExhausted) || !strings.Contains(err.Error(), "3 proposal(s) were recorded and attempt 4") {
				t.Fatalf("4th proposal: %v", err)
			}
		})
	}
}

// TestReplayDiverges checks the divergence errors.
func TestReplayDiverges(t *testing.T) {
	rs := newMemStore()
	rec := NewRecorder(&scripted{answers: []Proposal{{Patch: calcPatch}, {Patch: calcPatch}}}, rs, "r")
	for i := int32(1); i <= 2; i++ {
		_, err := rec.Propose(context.Background(), request(i))
		must(t, err)
	}
	cases := []struct {
		name string
		mod  func(*glv1.PatchRequest)
		want string
	}{
		{"other attempt", func(r *glv1.PatchRequest) { r.Attempt = 2 }, "recorded for attempt 1"},
		{"other command", func(r *glv1.PatchRequest) { r.FailingCommand = "go test ./..." }, "asks for attempt 1, command `go test ./...`"},
		{"other failures", func(r *glv1.PatchRequest) { r.Failures[0].Line = 99 }, "proposal 1 was recorded"},
		{"other exit code", func(r *glv1.PatchRequest) { r.ExitCode = 2 }, "exited 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := request(1)
			c.mod(req)
			_, err := NewReplay(rs, "r").Propose(context.Background(), req)
			if !errors.Is(err, ErrReplayDiverged) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want divergence saying %q", err, c.want)
			}
		})
	}
	if _, err := NewReplay(newMemStore(), "none").Propose(context.Background(), request(1)); !errors.Is(err, ErrReplayExhausted) {
		t.Errorf("empty recording: %v", err)
	}
	bad := newMemStore()
	must(t, bad.PutRecording(context.Background(), "b", 1, []byte("{not json")))
	if _, err := NewReplay(bad, "b").Propose(context.Background(), request(1)); !errors.Is(err, ErrReplayDiverged) || !strings.Contains(err.Error(), "unreadable") {
		t.Errorf("corrupt record: %v", err)
	}
	if _, err := NewReplay(rs, "").Propose(context.Background(), request(1)); !errors.Is(err, ErrConfig) {
		t.Errorf("missing id: %v", err)
	}
}

// TestRecorderStoreFailure checks that a recording that cannot be stored
// fails the proposal (the bbolt store refuses an unknown run).
func TestRecorderStoreFailure(t *testing.T) {
	rs := bboltStore(t, "known")
	rec := NewRecorder(&scripted{answers: []Proposal{{Patch: calcPatch}}}, rs, "unknown-run")
	_, err := rec.Propose(context.Background(), request(1))
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("error %v, want store.ErrNotFound", err)
	}
}
