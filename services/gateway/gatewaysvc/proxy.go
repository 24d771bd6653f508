package gatewaysvc

import (
	"context"
	"errors"
	"io"

	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// runProxy forwards RunService to the loop. Every handler calls upstream
// with the incoming context (so cancellation and deadline travel) and
// returns upstream errors untouched (so status codes and messages do);
// WatchRun goes through the fan-out hub.
type runProxy struct {
	glv1.UnimplementedRunServiceServer
	up    glv1.RunServiceClient
	watch ownedWatch
}

var _ glv1.RunServiceServer = (*runProxy)(nil)

// Verify forwards the stream; the client going away cancels the run, as
// it does on the loop, unless the request is detached.
func (p *runProxy) Verify(req *glv1.VerifyRequest, down grpc.ServerStreamingServer[glv1.VerifyResponse]) error {
	up, err := p.up.Verify(upstreamContext(down.Context()), req)
	if err != nil {
		return err
	}
	return pipe(up.Recv, down.Send)
}

// Fix forwards both directions of the repair stream. The client closing
// its side closes the upstream side; the upstream ending ends the call.
func (p *runProxy) Fix(down grpc.BidiStreamingServer[glv1.FixRequest, glv1.FixResponse]) error {
	ctx, cancel := context.WithCancel(upstreamContext(down.Context()))
	defer cancel()
	up, err := p.up.Fix(ctx)
	if err != nil {
		return err
	}
	go forwardRequests(down, up, cancel)
	return pipe(up.Recv, down.Send)
}

// forwardRequests copies client messages upstream until the client closes
// its side (then CloseSend) or fails (then the upstream call is cancelled).
// An upstream that already ended is left to pipe, which reports its status.
func forwardRequests(down grpc.BidiStreamingServer[glv1.FixRequest, glv1.FixResponse],
	up grpc.BidiStreamingClient[glv1.FixRequest, glv1.FixResponse], cancel context.CancelFunc) {
	for {
		msg, err := down.Recv()
		if errors.Is(err, io.EOF) {
			_ = up.CloseSend()
			return
		}
		if err != nil {
			cancel()
			return
		}
		if err := up.Send(msg); err != nil {
			return
		}
	}
}

// WatchRun attaches the caller to the run's shared upstream stream, once
// the loop showed the caller the run.
func (p *runProxy) WatchRun(req *glv1.WatchRunRequest, down grpc.ServerStreamingServer[glv1.WatchRunResponse]) error {
	return p.watch.Watch(down.Context(), req.GetRunId(), req.GetAfterSeq(), func(ev *glv1.RunEvent) error {
		return down.Send(&glv1.WatchRunResponse{Event: ev})
	})
}

// GetRun forwards.
func (p *runProxy) GetRun(ctx context.Context, req *glv1.GetRunRequest) (*glv1.GetRunResponse, error) {
	return p.up.GetRun(upstreamContext(ctx), req)
}

// ListRuns forwards.
func (p *runProxy) ListRuns(ctx context.Context, req *glv1.ListRunsRequest) (*glv1.ListRunsResponse, error) {
	return p.up.ListRuns(upstreamContext(ctx), req)
}

// StartRun forwards: the run is detached on the loop, so nothing here
// holds it.
func (p *runProxy) StartRun(ctx context.Context, req *glv1.StartRunRequest) (*glv1.StartRunResponse, error) {
	return p.up.StartRun(upstreamContext(ctx), req)
}

// CancelRun forwards.
func (p *runProxy) CancelRun(ctx context.Context, req *glv1.CancelRunRequest) (*glv1.CancelRunResponse, error) {
	return p.up.CancelRun(upstreamContext(ctx), req)
}

// DiscoverWorkspace forwards.
func (p *runProxy) DiscoverWorkspace(ctx context.Context, req *glv1.DiscoverWorkspaceRequest) (*glv1.DiscoverWorkspaceResponse, error) {
	return p.up.DiscoverWorkspace(upstreamContext(ctx), req)
}

// pipe copies messages from recv to send until recv ends: io.EOF is a clean
// end (nil), any other error is returned as is.
func pipe[T any](recv func() (*T, error), send func(*T) error) error {
	for {
		msg, err := recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := send(msg); err != nil {
			return err
		}
	}
}
