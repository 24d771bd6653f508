package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/progress"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/stack"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// errStreamEnded means an event stream ended before its RunFinished event.
var errStreamEnded = errors.New("the run's event stream ended before the run finished")

// recvFunc receives the next event of a stream.
type recvFunc func() (*glv1.RunEvent, error)

// eventSink receives every event (the progress renderer, a JSON printer).
type eventSink interface {
	Event(*glv1.RunEvent)
}

// follow feeds a run's events to sink until RunFinished and returns the
// run id and the finishing event. A ResumeFrom event (the server dropped a
// lagging stream) re-attaches with WatchRun from the seq it names.
func follow(ctx context.Context, conn *stack.Conn, recv recvFunc, sink eventSink) (string, *glv1.RunFinished, error) {
	var runID string
	var last uint64
	for {
		ev, err := recv()
		if errors.Is(err, io.EOF) {
			return runID, nil, fmt.Errorf("run %s: %w", runID, errStreamEnded)
		}
		if err != nil {
			return runID, nil, err
		}
		if runID == "" {
			runID = ev.GetRunId()
		}
		if r := ev.GetResumeFrom(); r != nil {
			recv, err = rewatch(ctx, conn, runID, r.GetAfterSeq())
			if err != nil {
				return runID, nil, err
			}
			continue
		}
		if ev.GetSeq() != 0 && ev.GetSeq() <= last {
			continue // replayed after a resume
		}
		last = ev.GetSeq()
		sink.Event(ev)
		if f := ev.GetRunFinished(); f != nil {
			return runID, f, nil
		}
	}
}

// rewatch opens WatchRun after seq.
func rewatch(ctx context.Context, conn *stack.Conn, runID string, after uint64) (recvFunc, error) {
	s, err := conn.Run.WatchRun(ctx, &glv1.WatchRunRequest{RunId: runID, AfterSeq: after})
	if err != nil {
		return nil, fmt.Errorf("re-attach to run %s: %w", runID, err)
	}
	return func() (*glv1.RunEvent, error) {
		m, err := s.Recv()
		return m.GetEvent(), err
	}, nil
}

// finalRun fetches the finished run; when that fails it builds what it can
// from the RunFinished event.
func finalRun(ctx context.Context, conn *stack.Conn, runID string, fin *glv1.RunFinished) *glv1.Run {
	resp, err := conn.Run.GetRun(ctx, &glv1.GetRunRequest{RunId: runID})
	if err == nil && resp.GetRun().GetResult() != nil {
		return resp.GetRun()
	}
	return &glv1.Run{Id: runID, Status: fin.GetStatus(), Result: fin.GetResult(), Metrics: fin.GetMetrics()}
}

// newRenderer builds the progress renderer on w.
func (a *app) newRenderer(w io.Writer, logs bool) *progress.Renderer {
	tty := a.terminal(w)
	return progress.New(w, progress.Options{Terminal: tty, Width: a.width(w), Logs: logs})
}

// verdictExit maps a finished run to the exit code: PASS 0, FAIL 1,
// anything else (ERROR, CANCELED, INTERRUPTED) 2 with its reason.
func verdictExit(run *glv1.Run) error {
	switch run.GetResult().GetStatus() {
	case glv1.Verdict_VERDICT_PASS:
		return nil
	case glv1.Verdict_VERDICT_FAIL:
		return failed()
	}
	why := run.GetError()
	if why == "" {
		why = run.GetResult().GetSummary()
	}
	if why == "" {
		why = "no verdict"
	}
	return &exitError{code: ExitError, err: fmt.Errorf("run %s ended %s: %s", run.GetId(), progress.RunStatus(run.GetStatus()), why)}
}

// nopSink discards events.
type nopSink struct{}

func (nopSink) Event(*glv1.RunEvent) {}
