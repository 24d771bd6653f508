package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.uber.org/zap"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/coverage"
	"github.com/greenlight-dev/greenlight/services/loop/internal/patch"
	"github.com/greenlight-dev/greenlight/services/loop/internal/provider"
	"github.com/greenlight-dev/greenlight/services/loop/internal/transition"
	"github.com/greenlight-dev/greenlight/services/loop/internal/verdict"
)

// Stop reasons of a repair run (FixMetrics.stop_reason).
const (
	StopGreen          = "green"
	StopMaxRounds      = "max_rounds"
	StopTimeBudget     = "time_budget"
	StopCostBudget     = "cost_budget"
	StopProviderGaveUp = "provider_gave_up"
	StopCanceled       = "canceled"
	// StopError: greenlight's own machinery failed (discovery, executor,
	// blob store); nothing can be concluded about the code.
	StopError = "error"
)

// fixer is one repair run's state.
type fixer struct {
	r     *run
	rec   *glv1.Run
	opts  *glv1.FixOptions
	guard patch.Guardrails
	prov  Provider
	tr    *trees

	start    time.Time
	deadline time.Time
	// current is the accepted snapshot and cur its verification.
	current *glv1.Digest
	cur     *verification
	// baseline is the unpatched snapshot's verification, the first one:
	// every patched verification's transitions are against it, and a
	// patch that breaks what passed in it is rolled back.
	baseline *verification
	// targets are the run's goal (FixOptions.targets; zero: the default).
	targets transition.Targets
	// plan is the plan pinned from the first verification (the unpatched
	// snapshot); every later verification runs it.
	plan *pinnedPlan
	// testPaths are the files the baseline collected tests from; patches
	// may not touch them (patch.Guardrails.TestPaths).
	testPaths []string
	changed   []string
	round     int32
	feedback  string
	patches   []*glv1.PatchOutcome
	metrics   *glv1.FixMetrics

	// hidden are the caller's hidden tests (nil: none; see hidden.go):
	// cur and baseline are then grading verifications, view is what the
	// model may see of the current snapshot, seen the test ids it may be
	// told about, and plain marks the verification of view.
	hidden *hiddenTests
	view   *verification
	seen   map[string]bool
	plain  bool
}

// run drives the loop: verify, then rounds of request → propose → guard →
// apply → verify → decide, until green or a limit, then FINALIZE.
func (f *fixer) run(ctx context.Context) {
	f.tr = newTrees(f.r.e.d.Blobs, f.r.e.cfg.Snapshot)
	defer f.tr.close()
	if err := f.r.markRunning(); err != nil {
		f.r.abort(err)
		return
	}
	f.start = f.r.e.now()
	f.deadline = f.start.Add(f.opts.GetTimeBudget().AsDuration())
	f.current = f.rec.GetSnapshot()
	f.changed = slices.Clone(f.opts.GetVerify().GetChangedFiles())
	f.metrics = &glv1.FixMetrics{Usage: &glv1.Usage{}}
	v, err := f.verify(ctx, f.current, 0)
	if err != nil {
		f.end(err, "")
		return
	}
	f.cur, f.baseline = v, v
	f.testPaths = f.baselineTests(ctx)
	f.targets = transition.TargetsOf(f.opts.GetTargets())
	reason, err := f.loop(ctx)
	f.end(err, reason)
}

// verify verifies a snapshot within what is left of both budgets, with the
// pinned plan. The first verification that gets a plan from discovery
// pins it; discovery only ever plans from the run's original snapshot,
// with the request's own changed files.
func (f *fixer) verify(ctx context.Context, snapshot *glv1.Digest, attempt int32) (*verification, error) {
	return f.verifyWith(ctx, snapshot, attempt, nil)
}

// verifyPatched verifies a round's patched snapshot, with the fail-fast
// probe when it is on and the current verification has one.
func (f *fixer) verifyPatched(ctx context.Context, snapshot *glv1.Digest) (*verification, error) {
	var p *probe
	if failFastOn(f.opts) && f.plan != nil {
		if pr, ok := probeOf(f.cur); ok {
			pr.judge = f.probeJudge(pr)
			p = pr
		}
	}
	return f.verifyWith(ctx, snapshot, f.round, p)
}

// verifyWith is verify with an optional fail-fast probe.
func (f *fixer) verifyWith(ctx context.Context, snapshot *glv1.Digest, attempt int32, p *probe) (*verification, error) {
	budget := min(f.opts.GetVerify().GetTimeBudget().AsDuration(), time.Until(f.deadline))
	o := proto.Clone(f.opts.GetVerify()).(*glv1.VerifyOptions)
	spec := verifySpec{snapshot: snapshot, opts: o, attempt: attempt, budget: max(budget, 0),
		plan: f.plan, planFrom: f.rec.GetSnapshot(), pin: f.plan == nil, threshold: f.opts.GetScoreThreshold(), probe: p,
		grading: attempt > 0, neverFlaky: verdict.NeverFlaky(o.GetChangedFiles(), f.opts.GetTargets().GetFailToPass())}
	if err := f.hiddenSpec(ctx, &spec); err != nil {
		return nil, err
	}
	v, err := f.r.verify(ctx, spec, f.tr)
	if err == nil {
		f.metrics.Reruns += int32(len(v.reruns))
		if f.baseline != nil && f.baseline != v {
			// A patch that adds code without tests shows as uncovered lines.
			coverage.Compare(v.result.GetCoverage(), f.baseline.result.GetCoverage())
			markIntroduced(v.result.GetFailures(), f.baseline.result)
		}
	}
	if err == nil && f.plan == nil && v.infra == "" && len(v.pipeline.GetSteps()) > 0 {
		f.plan = &pinnedPlan{caps: v.caps, pipeline: v.pipeline}
	}
	return v, err
}

// loop runs rounds until a stop condition holds and returns its reason.
func (f *fixer) loop(ctx context.Context) (string, error) {
	for {
		if reason := f.stopReason(); reason != "" {
			return reason, nil
		}
		f.round++
		if err := f.see(ctx); err != nil {
			return "", err
		}
		if err := f.announceRound(); err != nil {
			return "", err
		}
		prop, reason, err := f.propose(ctx)
		if err != nil || reason != "" {
			return reason, err
		}
		if prop == nil {
			continue // the provider failed; the round is spent
		}
		if err := f.evaluate(ctx, prop); err != nil {
			return "", err
		}
	}
}

// stopReason checks the stop conditions in order: green, the time budget,
// an infrastructure failure (nothing a patch could fix), the round limit,
// the cost budget.
func (f *fixer) stopReason() string {
	switch {
	case f.green(f.cur):
		f.metrics.Green = true
		f.metrics.AttemptsToGreen = f.round
		f.metrics.TimeToGreen = durationpb.New(f.cur.finished.Sub(f.start))
		return StopGreen
	case !f.r.e.now().Before(f.deadline):
		return StopTimeBudget
	case f.cur.infra != "" || f.cur.result.GetStatus() == glv1.Verdict_VERDICT_ERROR:
		return StopError
	case f.round >= f.opts.GetMaxRounds():
		return StopMaxRounds
	case f.opts.GetCostBudget() > 0 && f.metrics.GetUsage().GetCost() >= f.opts.GetCostBudget():
		return StopCostBudget
	}
	return ""
}

// green asks the verdict package whether v ends the run green.
func (f *fixer) green(v *verification) bool {
	return verdict.Green(verdict.GreenInput{Hidden: f.hiddenState(v), Targeted: f.targets.Explicit(),
		Resolution: func() glv1.Resolution { return f.transitions(v).GetResolution() }, InfraFailed: v.infra != "",
		Verdict: v.result.GetStatus(), Score: v.result.GetScore().GetTotal(), Threshold: f.opts.GetScoreThreshold()})
}

// transitions compares v with the baseline, test by test.
func (f *fixer) transitions(v *verification) *glv1.Transitions {
	if v.transitions == nil {
		v.transitions = transition.Compare(transition.SideOf(f.baseline.outcomes), transition.SideOf(v.outcomes), f.targets)
	}
	return v.transitions
}

// announceRound emits VerifyFailedRetry with the fix instructions (from
// what the model may see) and RoundStarted.
func (f *fixer) announceRound() error {
	retry := &glv1.VerifyFailedRetry{
		Attempt: f.round, MaxAttempts: f.opts.GetMaxRounds(), FailedCommand: failedCommand(f.view.outcomes),
		FixInstructions: joinFeedback(fixInstructions(f.view, f.round, f.opts.GetMaxRounds(), f.changed), f.hiddenNote()),
	}
	if err := f.r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_VerifyFailedRetry{VerifyFailedRetry: retry}}); err != nil {
		return err
	}
	return f.r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_RoundStarted{RoundStarted: &glv1.RoundStarted{Round: f.round, Snapshot: f.current}}})
}

// propose asks the provider for a patch within the time budget. A provider
// that fails (not one that gives up) costs the round: the failure is
// recorded as the round's outcome and fed back, and the loop goes on.
func (f *fixer) propose(ctx context.Context) (*Proposal, string, error) {
	req, err := f.request(ctx)
	if err != nil {
		return nil, "", err
	}
	pctx, cancel := context.WithDeadline(ctx, f.deadline)
	defer cancel()
	prop, err := f.prov.Propose(pctx, req)
	switch {
	case ctx.Err() != nil:
		return nil, "", ctx.Err()
	case gaveUp(err) || (err == nil && prop.GiveUp):
		f.addUsage(prop.Usage)
		return nil, StopProviderGaveUp, nil
	case pctx.Err() != nil:
		return nil, StopTimeBudget, nil
	case err != nil:
		f.feedback = fmt.Sprintf("The patch provider failed: %v", err)
		out := &glv1.PatchOutcome{Attempt: f.round, Reason: "provider failed: " + err.Error(), SnapshotBefore: f.current}
		return nil, "", f.record(out)
	}
	f.addUsage(prop.Usage)
	return &prop, "", nil
}

// gaveUp reports whether a provider error means it has nothing more to
// offer: it said so, its stream closed, or its recording ran out.
func gaveUp(err error) bool {
	return errors.Is(err, ErrGaveUp) || errors.Is(err, provider.ErrClosed) || errors.Is(err, provider.ErrReplayExhausted)
}

// addUsage counts a proposal's tokens and cost.
func (f *fixer) addUsage(u *glv1.Usage) {
	t := f.metrics.Usage
	t.PromptTokens += u.GetPromptTokens()
	t.CompletionTokens += u.GetCompletionTokens()
	t.Cost += u.GetCost()
}

// record persists a round's patch outcome and emits PatchEvaluated.
func (f *fixer) record(out *glv1.PatchOutcome) error {
	if out.GetRolledBack() {
		f.metrics.Rollbacks++
	}
	f.patches = append(f.patches, out)
	if err := f.r.e.d.Store.PutPatch(context.Background(), f.r.id, out); err != nil {
		return fmt.Errorf("%w: store patch outcome: %w", errInfra, err)
	}
	return f.r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_PatchEvaluated{PatchEvaluated: &glv1.PatchEvaluated{Outcome: out}}})
}

// end finishes the run with its metrics, the last accepted verification's
// result and, unless green, the stop memo.
func (f *fixer) end(err error, reason string) {
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		reason = StopCanceled
	case err != nil:
		reason = StopError
	}
	f.metrics.StopReason = reason
	f.metrics.Rounds = f.round
	if f.cur != nil && f.baseline != nil {
		f.metrics.Transitions = f.transitions(f.cur)
		f.metrics.BaselineInventory = f.baseline.result.GetInventory()
		f.recordHidden()
	}
	if f.cur == nil {
		if reason == StopCanceled {
			f.r.finish(glv1.RunStatus_RUN_STATUS_CANCELED, nil, f.metrics, "")
		} else {
			f.r.abort(err)
		}
		return
	}
	res := proto.Clone(f.cur.result).(*glv1.Result)
	status, infra := verdictStatus(res), f.cur.infra
	switch {
	case reason == StopCanceled:
		status = glv1.RunStatus_RUN_STATUS_CANCELED
	case err != nil:
		status, infra = glv1.RunStatus_RUN_STATUS_ERROR, err.Error()
	}
	if reason != StopGreen {
		res.StopMemo = f.memo(reason)
		if reason == StopMaxRounds {
			if e := f.r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_VerifyFailedMaxRetries{VerifyFailedMaxRetries: &glv1.VerifyFailedMaxRetries{
				Attempts: f.round, StopMemo: res.StopMemo,
			}}}); e != nil {
				f.r.log.Error("recording the retry limit failed", zap.Error(e))
			}
		}
	}
	if status == glv1.RunStatus_RUN_STATUS_PASSED || status == glv1.RunStatus_RUN_STATUS_FAILED {
		// The status is decided; the review only adds its opinion. The run's
		// context is not at hand here, the profile's timeout bounds it.
		f.r.review(context.Background(), f.opts.GetVerify(), res, func() string { return patchesDiff(f.patches) })
	}
	f.r.finish(status, res, f.metrics, infra)
}

// memo writes the stop memo of a run that did not get green.
func (f *fixer) memo(reason string) string {
	words := map[string]string{
		StopMaxRounds:      fmt.Sprintf("the round limit of %d was reached without green", f.opts.GetMaxRounds()),
		StopTimeBudget:     fmt.Sprintf("the time budget of %s ran out", f.opts.GetTimeBudget().AsDuration()),
		StopCostBudget:     fmt.Sprintf("the cost budget of %g was spent (%g)", f.opts.GetCostBudget(), f.metrics.GetUsage().GetCost()),
		StopProviderGaveUp: "the patch provider gave up",
		StopCanceled:       "the run was canceled",
		StopError:          "greenlight could not carry out a verification",
	}[reason]
	return stopMemo(memoInput{
		runID: f.r.id, v: f.cur, attempts: f.round, maxAttempts: f.opts.GetMaxRounds(),
		reason: words, changed: f.changed, patches: f.patches,
	})
}
