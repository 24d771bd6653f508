package engine_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
	"github.com/greenlight-dev/greenlight/services/loop/internal/events"
	"github.com/greenlight-dev/greenlight/services/loop/internal/provider"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

// harness is an engine wired to a real store, hub and blob store and to
// fake discovery and executor services over bufconn.
type harness struct {
	t     *testing.T
	eng   *engine.Engine
	store *store.Store
	hub   *events.Hub
	blobs *blob.Store
	disc  *enginetest.Discovery
	exec  *enginetest.Executor
	provs *scriptedProviders
}

// newHarness builds a harness whose discovery plans steps.
func newHarness(t *testing.T, cfg engine.Config, steps ...*glv1.Step) *harness {
	t.Helper()
	dir := t.TempDir()
	blobs, err := blob.NewStore(filepath.Join(dir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "runs.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Profiles == nil {
		cfg.Profiles = provider.Profiles{{Name: "scripted", Kind: glv1.ProviderKind_PROVIDER_KIND_COMMAND, Command: "scripted"}}
	}
	h := &harness{t: t, store: st, hub: events.NewHub(st, events.Options{}), blobs: blobs,
		disc: enginetest.NewDiscovery(steps...), exec: enginetest.NewExecutor(blobs, enginetest.CalcJudge),
		provs: &scriptedProviders{store: st, byRun: map[string]*scripted{}}}
	dconn := enginetest.Serve(t, func(s *grpc.Server) { glv1.RegisterDiscoveryServiceServer(s, h.disc) })
	econn := enginetest.Serve(t, func(s *grpc.Server) { glv1.RegisterExecutorServiceServer(s, h.exec) })
	h.eng, err = engine.New(engine.Deps{
		Store: st, Hub: h.hub, Blobs: blobs, Discovery: glv1.NewDiscoveryServiceClient(dconn),
		Executor: glv1.NewExecutorServiceClient(econn), Providers: h.provs.factory,
	}, cfg, zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		h.eng.Close()
		_ = st.Close()
	})
	return h
}

// snapshot stores files as a snapshot.
func (h *harness) snapshot(files map[string]string) *glv1.Digest {
	return enginetest.Snapshot(h.t, h.blobs, files)
}

// wait waits for a started run to finish and returns it with its events.
func (h *harness) wait(s *engine.Started) (*glv1.Run, []*glv1.RunEvent) {
	h.t.Helper()
	select {
	case <-s.Done:
	case <-time.After(60 * time.Second):
		h.t.Fatalf("run %s did not finish", s.Run.GetId())
	}
	run, err := h.store.GetRun(context.Background(), s.Run.GetId())
	if err != nil {
		h.t.Fatal(err)
	}
	evs, err := h.store.Events(context.Background(), s.Run.GetId(), 0, store.MaxEventsLimit)
	if err != nil {
		h.t.Fatal(err)
	}
	for i, ev := range evs {
		if ev.GetSeq() != uint64(i+1) {
			h.t.Fatalf("event %d has seq %d", i, ev.GetSeq())
		}
	}
	if len(evs) == 0 || evs[len(evs)-1].GetRunFinished() == nil {
		h.t.Fatalf("last event is not RunFinished: %v", kinds(evs))
	}
	return run, evs
}

// verify runs a Verify run to its end.
func (h *harness) verify(req *glv1.VerifyRequest) (*glv1.Run, []*glv1.RunEvent) {
	h.t.Helper()
	s, err := h.eng.StartVerify(context.Background(), req)
	if err != nil {
		h.t.Fatalf("StartVerify: %v", err)
	}
	return h.wait(s)
}

// fix runs a Fix run with a scripted COMMAND provider answering replies in
// turn (an empty reply gives up; "ERR" fails).
func (h *harness) fix(opts *glv1.FixOptions, snapshot *glv1.Digest, replies ...scriptedReply) (*glv1.Run, []*glv1.RunEvent, *scripted) {
	h.t.Helper()
	if opts.Provider == nil {
		opts.Provider = &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_COMMAND}
	}
	h.provs.next = &scripted{replies: replies}
	s, err := h.eng.StartFix(context.Background(), &glv1.FixStart{Snapshot: snapshot, Options: opts}, nil)
	if err != nil {
		h.t.Fatalf("StartFix: %v", err)
	}
	run, evs := h.wait(s)
	return run, evs, h.provs.byRun[s.Run.GetId()]
}

// kinds names the events' kinds in order.
func kinds(evs []*glv1.RunEvent) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = string(ev.ProtoReflect().WhichOneof(ev.ProtoReflect().Descriptor().Oneofs().ByName("kind")).Name())
	}
	return out
}

// count counts events of one kind.
func count(evs []*glv1.RunEvent, kind string) int {
	n := 0
	for _, k := range kinds(evs) {
		if k == kind {
			n++
		}
	}
	return n
}

// scriptedReply is one answer of a scripted provider.
type scriptedReply struct {
	patch string
	usage *glv1.Usage
	err   error
	delay time.Duration
}

// scripted is a provider that answers from a script and records requests.
type scripted struct {
	mu       sync.Mutex
	replies  []scriptedReply
	requests []*glv1.PatchRequest
}

func (s *scripted) Propose(ctx context.Context, req *glv1.PatchRequest) (engine.Proposal, error) {
	s.mu.Lock()
	s.requests = append(s.requests, req)
	if len(s.replies) == 0 {
		s.mu.Unlock()
		return engine.Proposal{}, engine.ErrGaveUp
	}
	r := s.replies[0]
	s.replies = s.replies[1:]
	s.mu.Unlock()
	if r.delay > 0 {
		select {
		case <-time.After(r.delay):
		case <-ctx.Done():
			return engine.Proposal{}, ctx.Err()
		}
	}
	if r.err != nil {
		return engine.Proposal{}, r.err
	}
	return engine.Proposal{Patch: r.patch, Usage: r.usage}, nil
}

// Requests returns the requests received.
func (s *scripted) Requests() []*glv1.PatchRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*glv1.PatchRequest(nil), s.requests...)
}

// scriptedProviders hands the next scripted provider to the next run.
type scriptedProviders struct {
	store *store.Store
	mu    sync.Mutex
	next  *scripted
	byRun map[string]*scripted
}

func (p *scriptedProviders) factory(_ context.Context, runID string, cfg *glv1.ProviderConfig) (engine.Provider, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if cfg.GetKind() == glv1.ProviderKind_PROVIDER_KIND_REPLAY {
		return provider.New(cfg, provider.Deps{Recordings: provider.StoreRecordings(p.store)})
	}
	if cfg.GetCommand() != "scripted" {
		return nil, errors.New("unknown command")
	}
	s := p.next
	if s == nil {
		s = &scripted{}
	}
	p.next = nil
	p.byRun[runID] = s
	return s, nil
}

// blobDigest converts a wire digest.
func blobDigest(d *glv1.Digest) (blob.Digest, error) { return blob.DigestFromProto(d) }
