package engine

import (
	"context"
	"errors"
	"fmt"

	"go.uber.org/zap"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/verdict"
)

// Started is a run that was created and is now running in the background.
type Started struct {
	// Run is the run as created (PENDING).
	Run *glv1.Run
	// Done is closed once the run wrote its RunFinished event.
	Done <-chan struct{}
}

// StartVerify validates req, creates the run (persisted before anything
// else happens) and starts the verification in the background. The run is
// canceled when ctx ends. Invalid requests (options, a missing or garbage
// snapshot) are refused with ErrInvalidArgument and nothing stored.
func (e *Engine) StartVerify(ctx context.Context, req *glv1.VerifyRequest) (*Started, error) {
	if err := e.accepting(); err != nil {
		return nil, err
	}
	opts, err := e.verifyOptions(req.GetOptions(), "options")
	if err != nil {
		return nil, err
	}
	snap, err := e.checkSnapshot(ctx, req.GetSnapshot())
	if err != nil {
		return nil, err
	}
	rec := &glv1.Run{
		Kind: glv1.RunKind_RUN_KIND_VERIFY, Snapshot: snap.Proto(), CurrentSnapshot: snap.Proto(),
		VerifyOptions: opts, SourceDir: req.GetSourceDir(),
	}
	r, err := e.create(ctx, rec)
	if err != nil {
		return nil, err
	}
	// A request that leaves the budget to the server lets the repository's
	// configured time budget (Pipeline.limits.run_timeout) apply.
	repoBudget := req.GetOptions().GetTimeBudget().AsDuration() <= 0
	return r.start(ctx, rec, func(ctx context.Context) { r.verifyRun(ctx, rec, repoBudget) })
}

// accepting fails once the engine is closing.
func (e *Engine) accepting() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return fmt.Errorf("%w: the loop is shutting down; retry against a running instance", ErrClosed)
	}
	return nil
}

// start launches a created run; if the engine closed in between, the run
// is finished CANCELED so it does not stay PENDING.
func (r *run) start(ctx context.Context, rec *glv1.Run, fn func(context.Context)) (*Started, error) {
	done, err := r.e.launch(ctx, r.id, fn)
	if err != nil {
		r.finish(glv1.RunStatus_RUN_STATUS_CANCELED, nil, nil, "")
		return nil, fmt.Errorf("%w: the loop is shutting down", err)
	}
	return &Started{Run: rec, Done: done}, nil
}

// verifyRun is a Verify run: one verification, then FINALIZE. repoBudget
// says the request set no time budget (see verifySpec.repoBudget).
func (r *run) verifyRun(ctx context.Context, rec *glv1.Run, repoBudget bool) {
	tr := newTrees(r.e.d.Blobs, r.e.cfg.Snapshot)
	defer tr.close()
	if err := r.markRunning(); err != nil {
		r.abort(err)
		return
	}
	opts := rec.GetVerifyOptions()
	v, err := r.verify(ctx, verifySpec{snapshot: rec.GetSnapshot(), opts: opts, attempt: 1, budget: opts.GetTimeBudget().AsDuration(),
		repoBudget: repoBudget, neverFlaky: verdict.NeverFlaky(opts.GetChangedFiles(), nil)}, tr)
	if err != nil {
		r.abort(err)
		return
	}
	st := verdictStatus(v.result)
	if st == glv1.RunStatus_RUN_STATUS_FAILED {
		memo := stopMemo(memoInput{
			runID: r.id, v: v, attempts: 1, maxAttempts: opts.GetMaxAttempts(),
			reason:  "the verification failed; a Verify run checks one snapshot once, the retry belongs to the caller",
			changed: opts.GetChangedFiles(),
		})
		v.result.StopMemo = memo
		if err := r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_VerifyFailedMaxRetries{VerifyFailedMaxRetries: &glv1.VerifyFailedMaxRetries{
			Attempts: 1, StopMemo: memo,
		}}}); err != nil {
			r.abort(err)
			return
		}
	}
	r.review(ctx, opts, v.result, func() string {
		if len(opts.GetChangedFiles()) == 0 {
			return "" // no change named: nothing to unpack
		}
		tree, err := tr.fs(ctx, rec.GetSnapshot())
		if err != nil {
			return ""
		}
		return changedFilesText(tree, opts.GetChangedFiles())
	})
	r.finish(st, v.result, nil, v.infra)
}

// abort ends a run that could not go on: CANCELED when its context ended,
// ERROR otherwise.
func (r *run) abort(err error) {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		r.finish(glv1.RunStatus_RUN_STATUS_CANCELED, nil, nil, "")
		return
	}
	r.log.Error("run failed", zap.Error(err))
	r.finish(glv1.RunStatus_RUN_STATUS_ERROR, &glv1.Result{
		Status: glv1.Verdict_VERDICT_ERROR, RunId: r.id, Summary: "ERROR: " + err.Error(),
	}, nil, err.Error())
}

// verdictStatus maps a verdict to the run's final status.
func verdictStatus(res *glv1.Result) glv1.RunStatus {
	switch res.GetStatus() {
	case glv1.Verdict_VERDICT_PASS:
		return glv1.RunStatus_RUN_STATUS_PASSED
	case glv1.Verdict_VERDICT_FAIL:
		return glv1.RunStatus_RUN_STATUS_FAILED
	}
	return glv1.RunStatus_RUN_STATUS_ERROR
}

// Discover checks a snapshot and returns its capabilities.
func (e *Engine) Discover(ctx context.Context, snapshot *glv1.Digest) (*glv1.Capabilities, error) {
	snap, err := e.checkSnapshot(ctx, snapshot)
	if err != nil {
		return nil, err
	}
	resp, err := e.d.Discovery.Discover(ctx, &glv1.DiscoverRequest{Snapshot: snap.Proto()})
	if err != nil {
		return nil, err // a status from discovery: passed on as it is
	}
	return resp.GetCapabilities(), nil
}
