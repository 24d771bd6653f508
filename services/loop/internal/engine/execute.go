package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// executorGrace is how long past the run budget the engine waits for the
// executor to report before giving up on it: the executor enforces the
// budget itself and needs a moment to destroy the sandbox and store logs.
const executorGrace = time.Minute

// execution is what one Execute call produced.
type execution struct {
	// results are the step results by pipeline index (nil: never reported).
	results  []*glv1.StepResult
	finished *glv1.ExecuteFinished
	elapsed  time.Duration
	// eventIndex maps the executed pipeline's step index to the index its
	// run events carry (nil: the same). A re-run (see rerun.go) executes a
	// pipeline of its own whose steps stand for other indices of the run.
	eventIndex []int32
	// stepArtifacts are, by pipeline index, the artifacts of steps whose
	// results came from a later execution (a re-run's continuation).
	stepArtifacts map[int][]*glv1.Artifact
	// logs bounds the live log stored per step.
	logs *logBudget
}

// artifactsFor returns the artifacts the step at index i wrote.
func (ex *execution) artifactsFor(i int) []*glv1.Artifact {
	if a, ok := ex.stepArtifacts[i]; ok {
		return a
	}
	return ex.finished.GetArtifacts()
}

// runIndex is the index run events carry for the executed step i.
func (ex *execution) runIndex(i int32) int32 {
	if i >= 0 && int(i) < len(ex.eventIndex) {
		return ex.eventIndex[i]
	}
	return i
}

// execute runs the pipeline on the executor with runTimeout as its budget,
// forwarding step_started, log_chunk and step_finished as run events.
func (r *run) execute(ctx context.Context, snapshot *glv1.Digest, p *glv1.Pipeline, o *glv1.VerifyOptions, runTimeout time.Duration) (*execution, error) {
	return r.executeAs(ctx, snapshot, p, o, runTimeout, nil)
}

// executeAs is execute whose run events carry eventIndex[i] for the
// pipeline's step i.
func (r *run) executeAs(ctx context.Context, snapshot *glv1.Digest, p *glv1.Pipeline, o *glv1.VerifyOptions, runTimeout time.Duration,
	eventIndex []int32) (*execution, error) {
	limits := &glv1.Limits{}
	if o.GetLimits() != nil {
		limits = proto.Clone(o.GetLimits()).(*glv1.Limits)
	}
	limits.RunTimeout = durationpb.New(runTimeout)
	ctx, cancel := context.WithTimeout(ctx, runTimeout+executorGrace)
	defer cancel()
	start := time.Now()
	stream, err := r.e.d.Executor.Execute(ctx, &glv1.ExecuteRequest{
		RunId: r.id, Snapshot: snapshot, Pipeline: p, Limits: limits,
		CommitSha: o.GetCommitSha(), Owner: r.owner,
	})
	if err != nil {
		return nil, executorError(ctx, err)
	}
	ex := &execution{results: make([]*glv1.StepResult, len(p.GetSteps())), eventIndex: eventIndex, logs: newLogBudget(limits, p)}
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, executorError(ctx, err)
		}
		if err := r.forward(resp, ex); err != nil {
			return nil, err
		}
	}
	ex.elapsed = time.Since(start)
	if ex.finished == nil {
		return nil, fmt.Errorf("%w: the executor ended the stream without its finished event", errInfra)
	}
	for i, res := range ex.finished.GetResults() {
		if i < len(ex.results) {
			ex.results[i] = res
		}
	}
	return ex, nil
}

// forward turns one executor event into a run event.
func (r *run) forward(resp *glv1.ExecuteResponse, ex *execution) error {
	switch ev := resp.GetEvent().(type) {
	case *glv1.ExecuteResponse_StepStarted:
		ev.StepStarted.Index = ex.runIndex(ev.StepStarted.GetIndex())
		return r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_StepStarted{StepStarted: ev.StepStarted}})
	case *glv1.ExecuteResponse_LogChunk:
		ev.LogChunk.Index = ex.runIndex(ev.LogChunk.GetIndex())
		return r.forwardLog(ev.LogChunk, ex.logs)
	case *glv1.ExecuteResponse_StepFinished:
		if i := int(ev.StepFinished.GetIndex()); i >= 0 && i < len(ex.results) {
			ex.results[i] = ev.StepFinished.GetResult()
		}
		ev.StepFinished.Index = ex.runIndex(ev.StepFinished.GetIndex())
		return r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_StepFinished{StepFinished: ev.StepFinished}})
	case *glv1.ExecuteResponse_Finished:
		ex.finished = ev.Finished
	}
	return nil
}

// executorError classifies a failed Execute: the run's own cancellation
// stays a cancellation, everything else is the infrastructure's fault.
func executorError(ctx context.Context, err error) error {
	if ctx.Err() != nil && status.Code(err) == codes.Canceled || errors.Is(err, context.Canceled) {
		return context.Canceled
	}
	return fmt.Errorf("%w: executor: %s", errInfra, status.Convert(err).Message())
}
