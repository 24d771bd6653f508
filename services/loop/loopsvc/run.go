package loopsvc

import (
	"context"
	"errors"
	"fmt"
	"io"

	"go.uber.org/zap"
	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/events"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

// errProtocol marks a client that breaks the Fix stream's protocol.
var errProtocol = errors.New("protocol error")

// replyBuffer is how many PatchReply messages may wait for the engine.
const replyBuffer = 8

// runServer implements RunService. Handlers are thin: validate, call the
// engine or the store, stream the run's events from the hub.
type runServer struct {
	glv1.UnimplementedRunServiceServer

	eng       *engine.Engine
	runs      *store.Store
	hub       *events.Hub
	discovery glv1.DiscoveryServiceClient
	log       *zap.Logger
}

var _ glv1.RunServiceServer = (*runServer)(nil)

func newRunServer(eng *engine.Engine, runs *store.Store, hub *events.Hub, d glv1.DiscoveryServiceClient, log *zap.Logger) *runServer {
	return &runServer{eng: eng, runs: runs, hub: hub, discovery: d, log: log}
}

// Verify starts a verification run and streams its events until it
// finishes. Unless the request is detached, the stream's context is the
// run's: a client that goes away cancels the run (it finishes CANCELED);
// WatchRun is the way to follow a run without owning it.
func (s *runServer) Verify(req *glv1.VerifyRequest, stream grpc.ServerStreamingServer[glv1.VerifyResponse]) error {
	ctx := stream.Context()
	started, err := s.eng.StartVerify(runContext(ctx, req.GetDetach()), req)
	if err != nil {
		return toStatus(err)
	}
	return s.follow(ctx, started.Run.GetId(), 0, func(ev *glv1.RunEvent) error {
		return stream.Send(&glv1.VerifyResponse{Event: ev})
	})
}

// Fix starts a repair run from the stream's first message (a FixStart) and
// streams its events. With the client provider, PatchReply messages from
// the caller answer the PatchRequested events; the caller closing its side
// of the stream means it has no more patches (the run stops with
// provider_gave_up when it would need one).
func (s *runServer) Fix(stream grpc.BidiStreamingServer[glv1.FixRequest, glv1.FixResponse]) error {
	ctx := stream.Context()
	first, err := stream.Recv()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return toStatus(fmt.Errorf("%w: the stream ended before its FixStart message", errProtocol))
		}
		return err
	}
	if first.GetStart() == nil {
		return toStatus(fmt.Errorf("%w: the first message of a Fix stream must be a FixStart", errProtocol))
	}
	replies := make(chan *glv1.PatchReply, replyBuffer)
	started, err := s.eng.StartFix(runContext(ctx, first.GetStart().GetDetach()), first.GetStart(), replies)
	if err != nil {
		return toStatus(err)
	}
	go s.receiveReplies(ctx, stream, replies, started.Run.GetId())
	return s.follow(ctx, started.Run.GetId(), 0, func(ev *glv1.RunEvent) error {
		return stream.Send(&glv1.FixResponse{Event: ev})
	})
}

// StartRun starts a detached verify or fix run and returns it at once.
func (s *runServer) StartRun(ctx context.Context, req *glv1.StartRunRequest) (*glv1.StartRunResponse, error) {
	runCtx := runContext(ctx, true)
	var started *engine.Started
	var err error
	switch {
	case req.GetVerify() != nil:
		started, err = s.eng.StartVerify(runCtx, req.GetVerify())
	case req.GetFix() != nil:
		started, err = s.eng.StartFix(runCtx, req.GetFix(), nil)
	default:
		err = fmt.Errorf("%w: StartRunRequest needs verify or fix", engine.ErrInvalidArgument)
	}
	if err != nil {
		return nil, toStatus(err)
	}
	return &glv1.StartRunResponse{Run: started.Run}, nil
}

// CancelRun stops a run and returns it as it is afterwards.
func (s *runServer) CancelRun(ctx context.Context, req *glv1.CancelRunRequest) (*glv1.CancelRunResponse, error) {
	run, err := s.eng.CancelRun(ctx, req.GetRunId())
	if err != nil {
		return nil, toStatus(err)
	}
	return &glv1.CancelRunResponse{Run: run}, nil
}

// runContext is the context runs started by a request run under: owned by
// the caller the gateway authenticated, detached when asked.
func runContext(ctx context.Context, detach bool) context.Context {
	ctx = engine.WithOwner(ctx, server.OwnerFromIncoming(ctx))
	if detach {
		ctx = engine.Detached(ctx)
	}
	return ctx
}

// receiveReplies hands the caller's PatchReply messages to the run until
// the caller closes its side (then it closes replies: the caller has no
// more patches) or the stream breaks (then it leaves replies open: the
// stream's end cancels the run, which must end CANCELED, not as if the
// caller had given up).
func (s *runServer) receiveReplies(ctx context.Context, stream grpc.BidiStreamingServer[glv1.FixRequest, glv1.FixResponse],
	replies chan<- *glv1.PatchReply, runID string) {
	for {
		msg, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			close(replies)
			return
		}
		if err != nil {
			return
		}
		reply := msg.GetPatch()
		if reply == nil {
			s.log.Warn("ignoring a Fix message that is not a PatchReply", zap.String("run_id", runID))
			continue
		}
		select {
		case replies <- reply:
		case <-ctx.Done():
			return
		}
	}
}

// WatchRun replays a run's stored events after after_seq and follows it
// live until its RunFinished event.
func (s *runServer) WatchRun(req *glv1.WatchRunRequest, stream grpc.ServerStreamingServer[glv1.WatchRunResponse]) error {
	if req.GetRunId() == "" {
		return toStatus(fmt.Errorf("%w: run_id is empty: pass the id from RunCreated, GetRun or ListRuns", engine.ErrInvalidArgument))
	}
	return s.follow(stream.Context(), req.GetRunId(), req.GetAfterSeq(), func(ev *glv1.RunEvent) error {
		return stream.Send(&glv1.WatchRunResponse{Event: ev})
	})
}

// follow sends a run's events with seq > after until RunFinished.
func (s *runServer) follow(ctx context.Context, runID string, after uint64, send func(*glv1.RunEvent) error) error {
	sub, err := s.hub.Subscribe(ctx, runID, after)
	if err != nil {
		return toStatus(err)
	}
	defer sub.Close()
	for {
		ev, err := sub.Next(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return toStatus(err)
		}
		if err := send(ev); err != nil {
			return err
		}
	}
}

// GetRun returns one run with its result and patch outcomes.
func (s *runServer) GetRun(ctx context.Context, req *glv1.GetRunRequest) (*glv1.GetRunResponse, error) {
	if req.GetRunId() == "" {
		return nil, toStatus(fmt.Errorf("%w: run_id is empty", engine.ErrInvalidArgument))
	}
	run, err := s.runs.GetRun(ctx, req.GetRunId())
	if err != nil {
		return nil, toStatus(err)
	}
	return &glv1.GetRunResponse{Run: run}, nil
}

// ListRuns lists runs newest first, filtered by status and paged; results
// are left out for size (GetRun has them).
func (s *runServer) ListRuns(ctx context.Context, req *glv1.ListRunsRequest) (*glv1.ListRunsResponse, error) {
	if req.GetPageSize() < 0 {
		return nil, toStatus(fmt.Errorf("%w: page_size is %d: use 0 for the default (%d) or a positive number",
			engine.ErrInvalidArgument, req.GetPageSize(), store.DefaultPageSize))
	}
	page, err := s.runs.ListRuns(ctx, store.ListQuery{
		Statuses: req.GetStatuses(), PageSize: int(req.GetPageSize()), PageToken: req.GetPageToken(),
	})
	if err != nil {
		return nil, toStatus(err)
	}
	for _, r := range page.Runs {
		r.Result = nil
	}
	return &glv1.ListRunsResponse{Runs: page.Runs, NextPageToken: page.NextPageToken}, nil
}

// DiscoverWorkspace checks the snapshot and asks discovery for its
// capabilities.
func (s *runServer) DiscoverWorkspace(ctx context.Context, req *glv1.DiscoverWorkspaceRequest) (*glv1.DiscoverWorkspaceResponse, error) {
	caps, err := s.eng.Discover(ctx, req.GetSnapshot())
	if err != nil {
		return nil, toStatus(err)
	}
	return &glv1.DiscoverWorkspaceResponse{Capabilities: caps}, nil
}
