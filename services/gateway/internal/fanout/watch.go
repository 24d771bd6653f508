package fanout

import (
	"context"
	"errors"
	"fmt"
	"io"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Reasons carried by ResumeFrom events.
const (
	ReasonSlow     = "watcher too slow: re-attach with WatchRun(after_seq)"
	ReasonUpstream = "upstream stream lost: re-attach with WatchRun(after_seq)"
)

// Watch delivers the run's events with seq > after to send, in order and
// without gaps, until the run finishes (nil), ctx ends, send fails, the
// watcher is dropped as too slow (a ResumeFrom event, then nil) or the
// upstream fails (see the package doc).
func (h *Hub) Watch(ctx context.Context, runID string, after uint64, send func(*glv1.RunEvent) error) error {
	f := h.acquire(runID, after)
	w := &watcher{cursor: after}
	defer h.release(f, w)
	for {
		evs, wait, st := f.next(w)
		switch st {
		case stateEvents:
			for _, ev := range evs {
				if err := send(ev); err != nil {
					return err
				}
				f.advance(w, ev.GetSeq())
			}
		case stateWait:
			select {
			case <-wait:
			case <-ctx.Done():
				return status.FromContextError(ctx.Err()).Err()
			}
		case stateBehind:
			finished, err := h.catchUp(ctx, f, w, send)
			if err != nil || finished {
				return err
			}
		case stateDropped:
			return send(resumeFrom(runID, w.cursor, ReasonSlow))
		case stateDone:
			return h.ending(runID, w.cursor, f.result(), send)
		}
	}
}

// catchUp delivers events on a dedicated upstream stream from w's cursor
// until f's window covers it. finished is true when the run ended first.
func (h *Hub) catchUp(ctx context.Context, f *feed, w *watcher, send func(*glv1.RunEvent) error) (finished bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	h.upstreams.Add(1)
	stream, err := h.src.WatchRun(ctx, &glv1.WatchRunRequest{RunId: f.runID, AfterSeq: w.cursor})
	if err != nil {
		return false, err
	}
	for !f.covers(w.cursor) {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		ev := resp.GetEvent()
		if ev == nil || ev.GetSeq() <= w.cursor {
			continue
		}
		if err := send(ev); err != nil {
			return false, err
		}
		w.cursor = ev.GetSeq() // not attached yet: only this goroutine reads it
	}
	return false, nil
}

// ending turns the way a feed ended into the watcher's last words.
func (h *Hub) ending(runID string, cursor uint64, err error, send func(*glv1.RunEvent) error) error {
	if err == nil {
		return nil
	}
	st, ok := status.FromError(err)
	if !ok {
		// Only the hub's own context ends a feed without a status: shutdown.
		st = status.New(codes.Unavailable, fmt.Sprintf("gateway is shutting down: %v", err))
	}
	if !resumable(st.Code()) {
		return st.Err()
	}
	if sendErr := send(resumeFrom(runID, cursor, ReasonUpstream)); sendErr != nil {
		return sendErr
	}
	return st.Err()
}

// resumable says whether re-attaching later may work: the upstream went
// away, as opposed to the request being wrong.
func resumable(c codes.Code) bool {
	switch c {
	case codes.NotFound, codes.InvalidArgument, codes.FailedPrecondition, codes.OutOfRange,
		codes.PermissionDenied, codes.Unauthenticated, codes.Unimplemented, codes.AlreadyExists:
		return false
	}
	return true
}

// resumeFrom builds the synthetic event telling a watcher where to resume.
// Its seq is 0: it is not one of the run's stored events.
func resumeFrom(runID string, after uint64, reason string) *glv1.RunEvent {
	return &glv1.RunEvent{RunId: runID, Time: timestamppb.Now(), Kind: &glv1.RunEvent_ResumeFrom{
		ResumeFrom: &glv1.ResumeFrom{AfterSeq: after, Reason: reason},
	}}
}
