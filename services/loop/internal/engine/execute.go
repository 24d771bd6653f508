package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/fleet"
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
	// executor is where it ran ("" unless the executor client is a fleet);
	// retries are the infrastructure failures it survived.
	executor string
	retries  []string
}

// artifactsFor returns the artifacts the step at index i wrote.
func (ex *execution) artifactsFor(i int) []*glv1.Artifact {
	if a, ok := ex.stepArtifacts[i]; ok {
		return a
	}
	return ex.finished.GetArtifacts()
}

// runIndex is the index run events carry for the executed step i; -1:
// a silent step (a re-run's setup) whose events are not forwarded.
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
// pipeline's step i. An infrastructure failure (the executor lost, its
// engine failing, the stream ending without its finished event) runs the
// pipeline once more, from the same snapshot, on another executor when the
// executor client is a fleet with a healthy alternative; the retry is an
// ExecutorRetry event and a line of the result's infra_retries.
func (r *run) executeAs(ctx context.Context, snapshot *glv1.Digest, p *glv1.Pipeline, o *glv1.VerifyOptions, runTimeout time.Duration,
	eventIndex []int32) (*execution, error) {
	limits := &glv1.Limits{}
	if o.GetLimits() != nil {
		limits = proto.Clone(o.GetLimits()).(*glv1.Limits)
	}
	limits.RunTimeout = durationpb.New(runTimeout)
	ctx, cancel := context.WithTimeout(ctx, runTimeout+executorGrace)
	defer cancel()
	ctx = fleet.WithQueueReport(ctx, r.reportQueued)
	req := &glv1.ExecuteRequest{
		RunId: r.id, Snapshot: snapshot, Pipeline: p, Limits: limits,
		CommitSha: o.GetCommitSha(), Owner: r.owner,
	}
	var retries []string
	attemptCtx := ctx
	for {
		ex, executor, err := r.executeOnce(attemptCtx, req, eventIndex, limits)
		if err == nil {
			ex.executor, ex.retries = executor, retries
			why := stepInfraError(ex)
			if why == "" || len(retries) > 0 || !r.retryElsewhere(ctx, executor, errInfra) {
				return ex, nil
			}
			// A step the executor could not run (its engine failed, its
			// image would not start): the same pipeline elsewhere.
			err = fmt.Errorf("%w: %s", errInfra, why)
		}
		if len(retries) > 0 || !r.retryElsewhere(ctx, executor, err) {
			if len(retries) > 0 {
				err = fmt.Errorf("%w (after a first failure: %s)", err, retries[0])
			}
			return nil, err
		}
		why := strings.TrimPrefix(err.Error(), errInfra.Error()+": ")
		retries = append(retries, fmt.Sprintf("executor %s failed (%s); the verification ran again on another executor", executor, why))
		ev := &glv1.RunEvent{Kind: &glv1.RunEvent_ExecutorRetry{ExecutorRetry: &glv1.ExecutorRetry{FailedExecutor: executor, Reason: why}}}
		if err := r.emit(ev); err != nil {
			return nil, err
		}
		r.log.Warn("execution failed on an executor; running it again elsewhere", zap.String("executor", executor), zap.String("reason", why))
		attemptCtx = fleet.Avoid(ctx, executor)
	}
}

// stepInfraError is the reason of the first step the executor reports it
// could not run at all (STEP_STATUS_ERROR), "" when every step ran.
func stepInfraError(ex *execution) string {
	for _, res := range ex.results {
		if res.GetStatus() == glv1.StepStatus_STEP_STATUS_ERROR {
			return fmt.Sprintf("step %s could not run: %s", res.GetName(), res.GetReason())
		}
	}
	return ""
}

// retryElsewhere says whether a failed execution runs again on another
// executor: an infrastructure failure (not the run's own end) on a known
// executor of a fleet that has a healthy alternative.
func (r *run) retryElsewhere(ctx context.Context, executor string, err error) bool {
	if executor == "" || ctx.Err() != nil || !errors.Is(err, errInfra) {
		return false
	}
	f, ok := r.e.d.Executor.(interface{ HasAlternative(string) bool })
	return ok && f.HasAlternative(executor)
}

// reportQueued tells the run's watchers that it waits for a sandbox.
func (r *run) reportQueued(position, capacity int) {
	ev := &glv1.RunEvent{Kind: &glv1.RunEvent_Queued{Queued: &glv1.Queued{Position: int32(position), Capacity: int32(capacity)}}}
	if err := r.emit(ev); err != nil {
		r.log.Warn("recording the queue position failed", zap.Error(err))
	}
}

// executeOnce runs the pipeline on one executor (chosen by the executor
// client) and returns the execution and that executor's address ("" when
// unknown: a single executor, or no placement).
func (r *run) executeOnce(ctx context.Context, req *glv1.ExecuteRequest, eventIndex []int32, limits *glv1.Limits) (*execution, string, error) {
	start := time.Now()
	stream, err := r.e.d.Executor.Execute(ctx, req)
	if err != nil {
		return nil, "", executorError(ctx, err)
	}
	executor := ""
	if pl, ok := stream.(fleet.Placed); ok {
		executor = pl.Executor()
	}
	p := req.GetPipeline()
	ex := &execution{results: make([]*glv1.StepResult, len(p.GetSteps())), eventIndex: eventIndex, logs: newLogBudget(limits, p)}
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, executor, executorError(ctx, err)
		}
		if err := r.forward(resp, ex); err != nil {
			return nil, executor, err
		}
	}
	ex.elapsed = time.Since(start)
	if ex.finished == nil {
		return nil, executor, fmt.Errorf("%w: the executor ended the stream without its finished event", errInfra)
	}
	for i, res := range ex.finished.GetResults() {
		if i < len(ex.results) {
			ex.results[i] = res
		}
	}
	return ex, executor, nil
}

// forward turns one executor event into a run event.
func (r *run) forward(resp *glv1.ExecuteResponse, ex *execution) error {
	if _, chunk := resp.GetEvent().(*glv1.ExecuteResponse_LogChunk); !chunk {
		// Log chunks are stored without waiting (see logBudget): what
		// follows them waits for their outcome.
		if err := r.settleLogs(ex.logs); err != nil {
			return err
		}
	}
	switch ev := resp.GetEvent().(type) {
	case *glv1.ExecuteResponse_StepStarted:
		if ev.StepStarted.Index = ex.runIndex(ev.StepStarted.GetIndex()); ev.StepStarted.Index < 0 {
			return nil
		}
		return r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_StepStarted{StepStarted: ev.StepStarted}})
	case *glv1.ExecuteResponse_LogChunk:
		if ev.LogChunk.Index = ex.runIndex(ev.LogChunk.GetIndex()); ev.LogChunk.Index < 0 {
			return nil
		}
		return r.forwardLog(ev.LogChunk, ex.logs)
	case *glv1.ExecuteResponse_StepFinished:
		if i := int(ev.StepFinished.GetIndex()); i >= 0 && i < len(ex.results) {
			ex.results[i] = ev.StepFinished.GetResult()
		}
		if ev.StepFinished.Index = ex.runIndex(ev.StepFinished.GetIndex()); ev.StepFinished.Index < 0 {
			return nil
		}
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
