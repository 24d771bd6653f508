package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
	"github.com/greenlight-dev/greenlight/services/loop/internal/coverage"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
	"github.com/greenlight-dev/greenlight/services/loop/internal/verdict"
)

// verifySpec is what one verification checks.
type verifySpec struct {
	snapshot *glv1.Digest
	opts     *glv1.VerifyOptions
	attempt  int32
	// budget is the time this verification may take, discovery included.
	budget time.Duration
	// plan, when set, is a fix run's pinned plan: discovery is not asked
	// and nothing of the snapshot's configuration is read.
	plan *pinnedPlan
	// planFrom, when set, is the snapshot discovery plans from instead of
	// snapshot (a fix run plans only from its baseline snapshot).
	planFrom *glv1.Digest
	// pin marks the verification whose plan a fix run pins; its
	// DiscoveryDone says so.
	pin bool
	// threshold is a fix run's score threshold (0: the server's).
	threshold float64
	// repoBudget lets the repository's configured time budget
	// (greenlight.yaml time_budget, planned as Pipeline.limits.run_timeout)
	// replace budget: the request left it to the server.
	repoBudget bool
	// probe, when set, runs a fix round's fail-fast probe in the same
	// execution (see failfast.go).
	probe *probe
	// hidden marks a fix run's grading verification: snapshot has the
	// run's hidden tests laid over it (see hidden.go).
	hidden bool
	// grading marks a fix run's verification of a patched snapshot: it
	// decides acceptance, so no failing test in it is re-run or excused
	// as flaky.
	grading bool
	// neverFlaky names the tests no re-run may excuse (the run's targets,
	// tests in files the change touched); nil: none beyond the defaults.
	neverFlaky func(parse.Test) bool
}

// verification is the outcome of one verification (DISCOVER → SCORE).
type verification struct {
	spec     verifySpec
	started  time.Time
	finished time.Time
	caps     *glv1.Capabilities
	// pipeline is discovery's plan, ordered tier by tier.
	pipeline *glv1.Pipeline
	exec     *execution
	outcomes []score.StepOutcome
	skipped  []*glv1.TierSkipped
	// reruns are the re-runs of failing tests (VerifyOptions.rerun_failed).
	reruns []rerun
	// budgetHit says the time budget ended the verification early.
	budgetHit bool
	// infra is why the verification could not be carried out ("" if it was).
	infra string
	// probed is set when the fail-fast probe found the patch fixes none of
	// the failing tests: the execution stopped there, nothing else ran and
	// the verification is not analyzed.
	probed *probeVerdict
	// extraIndices are the run-event indices past the pipeline's that the
	// probe's steps took (re-runs take the next ones).
	extraIndices int
	result       *glv1.Result
	// transitions against a fix run's baseline, computed once.
	transitions *glv1.Transitions
	// selected names the test steps narrowed to VerifyOptions.tests.
	selected map[string]bool
}

// passed reports whether the verdict is PASS.
func (v *verification) passed() bool { return v.result.GetStatus() == glv1.Verdict_VERDICT_PASS }

// judged is the verification as the verdict package's patch rules read it.
func (v *verification) judged() verdict.Verification {
	return verdict.Verification{Steps: v.outcomes, InfraFailed: v.infra != ""}
}

// verify runs one verification and records its events. It returns an error
// only when the run cannot go on (canceled, or the store failed); a
// verification that could not be carried out has infra set and an ERROR
// verdict.
func (r *run) verify(ctx context.Context, spec verifySpec, tr *trees) (*verification, error) {
	v := &verification{spec: spec, started: r.e.now()}
	deadline := v.started.Add(spec.budget)
	if err := r.discover(ctx, v, deadline, tr); err != nil {
		return nil, err
	}
	deadline = r.repositoryBudget(v, deadline)
	if v.infra == "" && !v.budgetHit {
		if err := r.runPipeline(ctx, v, deadline); err != nil {
			return nil, err
		}
		if v.probed != nil {
			return v, nil
		}
	}
	if err := r.recordSkips(v); err != nil {
		return nil, err
	}
	if err := r.analyze(ctx, v, tr); err != nil {
		return nil, err
	}
	v.finished = r.e.now()
	done := &glv1.VerificationDone{
		Ok: v.passed(), Attempt: spec.attempt, Score: v.result.GetScore(), FailedCommand: failedCommand(v.outcomes),
		Duration: durationpb.New(v.finished.Sub(v.started)), Tiers: v.pipeline.GetTiers(), HiddenTests: spec.hidden,
	}
	if err := r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_VerificationDone{VerificationDone: done}}); err != nil {
		return nil, err
	}
	return v, nil
}

// repositoryBudget applies the repository's configured time budget when
// the request left the budget to the server: discovery checked it against
// the maxima, and the server's own cap still bounds it.
func (r *run) repositoryBudget(v *verification, deadline time.Time) time.Time {
	b := v.pipeline.GetLimits().GetRunTimeout().AsDuration()
	if !v.spec.repoBudget || b <= 0 {
		return deadline
	}
	v.spec.budget = min(b, r.e.cfg.MaxBudgetCap)
	return v.started.Add(v.spec.budget)
}

// discover asks discovery for the pipeline of the selected tiers, or takes
// a fix run's pinned plan, and records it (ordered tier by tier) with a
// DiscoveryDone event.
func (r *run) discover(ctx context.Context, v *verification, deadline time.Time, tr *trees) error {
	if p := v.spec.plan; p != nil {
		v.caps, v.pipeline = p.caps, p.pipeline
		return r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_DiscoveryDone{DiscoveryDone: &glv1.DiscoveryDone{
			Capabilities: withNote(v.caps, reuseNote), Pipeline: v.pipeline, Attempt: v.spec.attempt,
		}}})
	}
	o := v.spec.opts
	pctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	from := v.spec.snapshot
	if v.spec.planFrom != nil {
		from = v.spec.planFrom
	}
	resp, err := r.e.d.Discovery.Plan(pctx, &glv1.PlanRequest{
		Snapshot: from, ChangedFiles: o.GetChangedFiles(), HighRisk: o.GetHighRisk(),
		MilestoneEnd: o.GetMilestoneEnd(), RunEnd: o.GetRunEnd(), Selection: o.GetSelection(), Images: o.GetImages(),
		Plan: o.GetPlan(), Security: o.GetSecurity(),
	})
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return ctx.Err()
	case pctx.Err() != nil || status.Code(err) == codes.DeadlineExceeded:
		v.budgetHit = true
		return nil
	default:
		v.infra = "discovery: " + status.Convert(err).Message()
		r.log.Warn("planning failed", zap.Error(err))
		return nil
	}
	// Coverage is collected through the test steps' environment; the
	// pinned plan of a fix run keeps it.
	v.caps, v.pipeline = resp.GetCapabilities(), coverage.Instrument(byTier(resp.GetPipeline()))
	if len(v.pipeline.GetSteps()) == 0 {
		v.infra = "discovery planned no step for this workspace: add a greenlight.yaml with steps, or commands discovery can find"
	}
	if ids := o.GetTests(); len(ids) > 0 && v.infra == "" {
		r.selectTests(ctx, v, tr, ids)
	}
	caps := v.caps
	if v.spec.pin {
		caps = withNote(caps, pinNote)
	}
	return r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_DiscoveryDone{DiscoveryDone: &glv1.DiscoveryDone{
		Capabilities: caps, Pipeline: v.pipeline, Attempt: v.spec.attempt,
	}}})
}

// runPipeline executes the pipeline with what is left of the budget.
func (r *run) runPipeline(ctx context.Context, v *verification, deadline time.Time) error {
	left := time.Until(deadline)
	if left <= 0 {
		v.budgetHit = true
		return nil
	}
	if p := v.spec.probe; p != nil && p.at < len(v.pipeline.GetSteps()) {
		return r.runProbed(ctx, v, p, deadline)
	}
	ex, err := r.execute(ctx, v.spec.snapshot, v.pipeline, v.spec.opts, left)
	if ok, err := r.executed(ctx, v, err); !ok {
		return err
	}
	v.exec = ex
	v.budgetHit = budgetExhausted(ex.results, left, ex.elapsed)
	return nil
}

// runProbed executes the pipeline with the fail-fast probe inserted (see
// failfast.go): it stops at a probe that shows the patch fixes nothing
// (v.probed), runs the pipeline again alone when the probe fixed only
// some tests, and otherwise keeps the execution without the probe steps.
func (r *run) runProbed(ctx context.Context, v *verification, p *probe, deadline time.Time) error {
	left := time.Until(deadline)
	combined, eventIndex, orig := p.combine(v.pipeline)
	ex, err := r.executeAs(ctx, v.spec.snapshot, combined, v.spec.opts, left, eventIndex)
	if ok, err := r.executed(ctx, v, err); !ok {
		return err
	}
	v.extraIndices = len(p.steps)
	probeResults, full := p.split(ex, orig, len(v.pipeline.GetSteps()))
	if pv := p.judge(ctx, probeResults, ex.finished.GetArtifacts()); pv.why != "" {
		v.probed = &pv
		return nil
	}
	if probeStopped(probeResults) {
		v.spec.probe = nil
		return r.runPipeline(ctx, v, deadline)
	}
	v.exec = full
	v.budgetHit = budgetExhausted(full.results, left, full.elapsed)
	return nil
}

// executed sorts an execution's error: ok when there is none; a
// cancellation or our own failure is returned; an infrastructure failure
// becomes the verification's infra reason (ok false, nil error).
func (r *run) executed(ctx context.Context, v *verification, err error) (bool, error) {
	switch {
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		return false, context.Canceled
	case err == nil:
		return true, nil
	case !errors.Is(err, errInfra):
		return false, err
	}
	v.infra = strings.TrimPrefix(err.Error(), errInfra.Error()+": ")
	r.log.Warn("execution failed", zap.Error(err))
	return false, nil
}

// recordSkips emits a TierSkipped event for every tier the budget cut
// short, and logs why.
func (r *run) recordSkips(v *verification) error {
	if !v.budgetHit {
		return nil
	}
	var results []*glv1.StepResult
	if v.exec != nil {
		results = v.exec.results
	}
	elapsed := r.e.now().Sub(v.started)
	v.skipped = skippedTiers(v.pipeline.GetSteps(), results, v.spec.budget, elapsed, true)
	if v.pipeline == nil {
		v.skipped = []*glv1.TierSkipped{{Tier: glv1.Tier_TIER_0, Reason: fmt.Sprintf(
			"time budget of %s exhausted after %s, before discovery answered: no tier ran", v.spec.budget, elapsed.Round(100*time.Millisecond))}}
	}
	for _, s := range v.skipped {
		r.log.Warn("tier skipped", zap.String("tier", tierName(s.GetTier())), zap.String("reason", s.GetReason()))
		if err := r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_TierSkipped{TierSkipped: s}}); err != nil {
			return err
		}
	}
	return nil
}

// failedCommand is the command of the first required step that ran and
// did not pass ("" when none).
func failedCommand(outcomes []score.StepOutcome) string {
	if o, ok := firstFailure(outcomes); ok {
		return display.Command(o.Result)
	}
	return ""
}

// firstFailure returns the first required step that ran and did not pass.
func firstFailure(outcomes []score.StepOutcome) (score.StepOutcome, bool) {
	for _, o := range outcomes {
		if !o.Optional() && o.Result != nil && o.Ran() && !o.EffectiveOK() {
			return o, true
		}
	}
	return score.StepOutcome{}, false
}
