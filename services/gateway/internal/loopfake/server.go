package loopfake

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// BlockLabel, set to "true" in VerifyOptions.labels, makes Verify create a
// run and then wait until its stream is cancelled.
const BlockLabel = "block"

// Server is the fake RunService.
type Server struct {
	glv1.UnimplementedRunServiceServer

	mu      sync.Mutex
	runs    map[string]*runLog
	nextID  int
	lastMD  metadata.MD
	lastDL  time.Time
	changed chan struct{}

	watchCalls atomic.Int64
	watching   atomic.Int64
	cancelled  chan string
}

// runLog is a run record and its events.
type runLog struct {
	run      *glv1.Run
	events   []*glv1.RunEvent
	finished bool
}

var _ glv1.RunServiceServer = (*Server)(nil)

// New returns an empty fake.
func New() *Server {
	return &Server{runs: map[string]*runLog{}, changed: make(chan struct{}), cancelled: make(chan string, 16)}
}

// Put stores (or replaces) a run record, keeping its events.
func (s *Server) Put(run *glv1.Run) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.logLocked(run.GetId()).run = proto.Clone(run).(*glv1.Run)
}

func (s *Server) logLocked(id string) *runLog {
	l := s.runs[id]
	if l == nil {
		l = &runLog{run: &glv1.Run{Id: id, Status: glv1.RunStatus_RUN_STATUS_RUNNING, CreatedAt: timestamppb.Now()}}
		s.runs[id] = l
	}
	return l
}

// Emit appends events to a run's log, numbering them from the last seq, and
// wakes its watchers. A RunFinished event finishes the run (its status and
// result go into the run record).
func (s *Server) Emit(runID string, evs ...*glv1.RunEvent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.logLocked(runID)
	for _, ev := range evs {
		ev = proto.Clone(ev).(*glv1.RunEvent)
		ev.RunId, ev.Seq = runID, uint64(len(l.events)+1)
		if ev.Time == nil {
			ev.Time = timestamppb.Now()
		}
		l.events = append(l.events, ev)
		l.run.LastSeq = ev.Seq
		if fin := ev.GetRunFinished(); fin != nil {
			l.finished = true
			l.run.Status, l.run.Result, l.run.FinishedAt = fin.GetStatus(), fin.GetResult(), ev.Time
		}
	}
	close(s.changed)
	s.changed = make(chan struct{})
}

// WatchCalls counts WatchRun calls received.
func (s *Server) WatchCalls() int64 { return s.watchCalls.Load() }

// ActiveWatches is the number of WatchRun streams open right now.
func (s *Server) ActiveWatches() int64 { return s.watching.Load() }

// LastMetadata returns the incoming metadata of the latest unary or Verify call.
func (s *Server) LastMetadata() metadata.MD {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastMD.Copy()
}

// LastDeadline returns the deadline of the latest unary call (zero if none).
func (s *Server) LastDeadline() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastDL
}

// Cancelled receives the id of every blocked Verify run whose stream was
// cancelled.
func (s *Server) Cancelled() <-chan string { return s.cancelled }

func (s *Server) record(ctx context.Context) {
	md, _ := metadata.FromIncomingContext(ctx)
	dl, _ := ctx.Deadline()
	s.mu.Lock()
	s.lastMD, s.lastDL = md, dl
	s.mu.Unlock()
}

// GetRun returns a stored run or NotFound.
func (s *Server) GetRun(ctx context.Context, req *glv1.GetRunRequest) (*glv1.GetRunResponse, error) {
	s.record(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.runs[req.GetRunId()]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "run %q not found: list runs with ListRuns", req.GetRunId())
	}
	return &glv1.GetRunResponse{Run: proto.Clone(l.run).(*glv1.Run)}, nil
}

// ListRuns returns the runs with one of req's statuses (every run when
// none is given), newest first, without results.
func (s *Server) ListRuns(ctx context.Context, req *glv1.ListRunsRequest) (*glv1.ListRunsResponse, error) {
	s.record(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	var runs []*glv1.Run
	for _, l := range s.runs {
		if st := req.GetStatuses(); len(st) > 0 && !slices.Contains(st, l.run.GetStatus()) {
			continue
		}
		r := proto.Clone(l.run).(*glv1.Run)
		r.Result = nil
		runs = append(runs, r)
	}
	slices.SortFunc(runs, func(a, b *glv1.Run) int {
		if c := b.GetCreatedAt().AsTime().Compare(a.GetCreatedAt().AsTime()); c != 0 {
			return c
		}
		return compareStrings(b.GetId(), a.GetId())
	})
	if n := int(req.GetPageSize()); n > 0 && len(runs) > n {
		runs = runs[:n]
	}
	return &glv1.ListRunsResponse{Runs: runs}, nil
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// DiscoverWorkspace answers InvalidArgument without a snapshot and a fixed
// Go capability otherwise.
func (s *Server) DiscoverWorkspace(ctx context.Context, req *glv1.DiscoverWorkspaceRequest) (*glv1.DiscoverWorkspaceResponse, error) {
	s.record(ctx)
	if req.GetSnapshot().GetHash() == "" {
		return nil, status.Error(codes.InvalidArgument, "snapshot is required: upload the workspace with BlobService.Write first")
	}
	return &glv1.DiscoverWorkspaceResponse{Capabilities: &glv1.Capabilities{}}, nil
}

// WatchRun replays events after after_seq and follows the run until it
// finishes.
func (s *Server) WatchRun(req *glv1.WatchRunRequest, stream grpc.ServerStreamingServer[glv1.WatchRunResponse]) error {
	s.watchCalls.Add(1)
	s.watching.Add(1)
	defer s.watching.Add(-1)
	return s.follow(stream.Context(), req.GetRunId(), req.GetAfterSeq(), func(ev *glv1.RunEvent) error {
		return stream.Send(&glv1.WatchRunResponse{Event: ev})
	})
}

// follow sends events with seq > after until RunFinished.
func (s *Server) follow(ctx context.Context, runID string, after uint64, send func(*glv1.RunEvent) error) error {
	for {
		s.mu.Lock()
		l, ok := s.runs[runID]
		if !ok {
			s.mu.Unlock()
			return status.Errorf(codes.NotFound, "run %q not found", runID)
		}
		pending := slices.Clone(l.events[min(int(after), len(l.events)):])
		finished, changed := l.finished, s.changed
		s.mu.Unlock()
		for _, ev := range pending {
			if err := send(ev); err != nil {
				return err
			}
			after = ev.GetSeq()
		}
		if len(pending) > 0 {
			continue
		}
		if finished {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return status.FromContextError(ctx.Err()).Err()
		}
	}
}

// Verify creates a run and streams its events: a canned passing run, or
// (BlockLabel) a started step and then nothing until cancelled.
func (s *Server) Verify(req *glv1.VerifyRequest, stream grpc.ServerStreamingServer[glv1.VerifyResponse]) error {
	ctx := stream.Context()
	s.record(ctx)
	id := s.newRunID("verify")
	s.Put(&glv1.Run{Id: id, Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: glv1.RunStatus_RUN_STATUS_RUNNING,
		Snapshot: req.GetSnapshot(), CreatedAt: timestamppb.Now(), SourceDir: req.GetSourceDir()})
	send := func(ev *glv1.RunEvent) error { return stream.Send(&glv1.VerifyResponse{Event: ev}) }
	if req.GetOptions().GetLabels()[BlockLabel] == "true" {
		s.Emit(id, Created(id), StepStartedEvent(0, GoSteps()[0]))
		err := s.follow(ctx, id, 0, send)
		s.cancelled <- id
		return err
	}
	s.Emit(id, PassingEvents(id)...)
	return s.follow(ctx, id, 0, send)
}

func (s *Server) newRunID(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	return fmt.Sprintf("%s-%d", prefix, s.nextID)
}

// Fix starts a run from FixStart and answers every PatchReply with a
// PatchEvaluated event holding the patch; when the client closes its side
// the run finishes PASSED.
func (s *Server) Fix(stream grpc.BidiStreamingServer[glv1.FixRequest, glv1.FixResponse]) error {
	s.record(stream.Context())
	first, err := stream.Recv()
	if err != nil {
		return err
	}
	if first.GetStart() == nil {
		return status.Error(codes.InvalidArgument, "the first message of a Fix stream must be a FixStart")
	}
	id := s.newRunID("fix")
	s.Put(&glv1.Run{Id: id, Kind: glv1.RunKind_RUN_KIND_FIX, CreatedAt: timestamppb.Now()})
	var seq uint64
	send := func(ev *glv1.RunEvent) error {
		s.Emit(id, ev)
		seq++
		ev.RunId, ev.Seq = id, seq
		return stream.Send(&glv1.FixResponse{Event: ev})
	}
	if err := send(Created(id)); err != nil {
		return err
	}
	for {
		msg, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return send(Finished(glv1.RunStatus_RUN_STATUS_PASSED, &glv1.Result{Status: glv1.Verdict_VERDICT_PASS, RunId: id}))
		}
		if err != nil {
			return err
		}
		reply := msg.GetPatch()
		if err := send(&glv1.RunEvent{Kind: &glv1.RunEvent_PatchEvaluated{PatchEvaluated: &glv1.PatchEvaluated{
			Outcome: &glv1.PatchOutcome{Attempt: reply.GetAttempt(), Diff: reply.GetPatch(), Applied: true},
		}}}); err != nil {
			return err
		}
	}
}
