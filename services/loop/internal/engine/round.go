package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"go.uber.org/zap"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/loop/internal/patch"
	"github.com/greenlight-dev/greenlight/services/loop/internal/verdict"
)

// evaluate is GUARD → APPLY → VERIFY → DECIDE for one proposal. A patch
// that cannot be read, is refused, does not apply, or is a regression (a
// step or test that passed now fails, a passing test disappeared, more
// checks fail; with a baseline, also against the baseline) is rolled back:
// the current snapshot stays, and the reason (with its rule) is fed back
// with the next request.
func (f *fixer) evaluate(ctx context.Context, prop *Proposal) error {
	p, err := patch.Parse(prop.Patch)
	if err != nil {
		return f.reject(patch.FailedOutcome(f.round, nil, prop.Patch, err), prop, err)
	}
	out, err := f.apply(ctx, p)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, errInfra) {
			return err
		}
		return f.reject(patch.FailedOutcome(f.round, p, prop.Patch, err), prop, err)
	}
	out.Usage = prop.Usage
	before := verdict.FailingChecks(f.cur.judged())
	v, err := f.verifyPatched(ctx, out.GetSnapshotAfter())
	if err != nil {
		return err
	}
	if pv := v.probed; pv != nil {
		out.FailingBefore, out.FailingAfter = int32(before), int32(before)
		out.RolledBack, out.Reason, out.Rule, out.Transitions = true, pv.why, verdict.RuleStillFailing, pv.transitions
		out.HiddenTests = f.hiddenProbed(pv.transitions)
		f.feedback = pv.why + "\n\nThe patch was rolled back (the rest of its verification was not run); the code is as it was before it."
		return f.record(out)
	}
	out.FailingBefore, out.FailingAfter = int32(before), int32(verdict.FailingChecks(v.judged()))
	out.Transitions = f.transitions(v)
	out.HiddenTests = f.hiddenState(v)
	if rule, why := f.worse(v); why != "" {
		out.RolledBack, out.Reason, out.Rule = true, why, rule
		f.feedback = why + "\n\nThe patch was rolled back; the code is as it was before it. Verdict with the patch: " + v.result.GetSummary()
		return f.record(out)
	}
	f.accept(v, out)
	return f.record(out)
}

// reject records a patch that was not applied.
func (f *fixer) reject(out *glv1.PatchOutcome, prop *Proposal, err error) error {
	out.RolledBack, out.Usage, out.SnapshotBefore, out.Rule = true, prop.Usage, f.current, rejectRule(err)
	f.feedback = fmt.Sprintf("The previous patch was not applied: %v", err)
	return f.record(out)
}

// worse says why the patched verification is a step back, with the rule
// to record ("" if it is not): the time budget ran out, or one of the
// verdict package's patch rules.
func (f *fixer) worse(v *verification) (rule, why string) {
	if v.budgetHit && !f.r.e.now().Before(f.deadline) {
		return RuleTimeBudget, "the time budget ran out while the patch was being verified"
	}
	in := verdict.PatchInput{Current: f.cur.judged(), CurrentPassed: f.cur.passed(), Patched: v.judged(),
		Summary: v.result.GetSummary(), Shown: f.shownRegressions}
	if f.baseline != nil && f.baseline != f.cur {
		b := f.baseline.judged()
		in.Baseline = &b
	}
	return verdict.Patch(in)
}

// accept makes the patched snapshot the current one.
func (f *fixer) accept(v *verification, out *glv1.PatchOutcome) {
	f.current, f.cur = out.GetSnapshotAfter(), v
	f.metrics.PatchLines += out.GetLinesAdded() + out.GetLinesRemoved()
	for _, file := range out.GetFiles() {
		if !contains(f.changed, file) {
			f.changed = append(f.changed, file)
		}
	}
	f.feedback = ""
	if !v.passed() {
		f.feedback = fmt.Sprintf("The previous patch was kept (failing checks %d → %d) but the checks still fail.",
			out.GetFailingBefore(), out.GetFailingAfter())
	}
	if err := f.r.update(func(run *glv1.Run) { run.CurrentSnapshot = f.current }); err != nil {
		f.r.log.Warn("recording the current snapshot failed", zap.Error(err))
	}
}

// apply checks the guardrails, applies p to a fresh copy of the current
// snapshot, stores the result in the blob store as a new snapshot (with
// hidden tests, also its grading snapshot) and returns the outcome so
// far. Refusals and patches that do not apply are returned as patch
// errors; errInfra marks our own failures.
func (f *fixer) apply(ctx context.Context, p *patch.Patch) (*glv1.PatchOutcome, error) {
	rc, err := f.r.openBlob(ctx, f.current)
	if err != nil {
		return nil, fmt.Errorf("%w: open snapshot: %w", errInfra, err)
	}
	defer rc.Close()
	res, err := patch.Apply(ctx, rc, p, patch.Options{Guardrails: f.effectiveGuard(), Limits: f.r.e.cfg.Snapshot})
	if err != nil {
		return nil, err
	}
	defer res.Close()
	tar, err := res.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errInfra, err)
	}
	defer tar.Close()
	d, err := f.r.e.d.Blobs.Put(ctx, tar)
	if err != nil {
		return nil, fmt.Errorf("%w: store patched snapshot: %w", errInfra, err)
	}
	if d.Hash != res.Digest.Hash || d.Size != res.Digest.Size {
		return nil, fmt.Errorf("%w: patched snapshot stored as %s, expected %s", errInfra, d, res.Digest)
	}
	out := res.Outcome(f.round)
	out.SnapshotBefore = f.current
	out.SnapshotAfter = blob.Digest{Hash: d.Hash, Size: d.Size}.Proto()
	if err := f.guardHidden(ctx, p, out.GetSnapshotAfter()); err != nil {
		return nil, err
	}
	return out, nil
}

// effectiveGuard is the request's guardrails; without allowed globs of
// its own, the repository's patch allow-list (greenlight.yaml, as pinned)
// applies. The repository can only narrow what a patch may touch: config
// changes are allowed by the request alone, and the files the pinned plan
// runs (a Makefile, a script) count as config.
func (f *fixer) effectiveGuard() patch.Guardrails {
	g := f.guard
	g.ConfigPaths = f.plan.planReads()
	g.TestPaths = append(slices.Clone(g.TestPaths), f.testPaths...)
	if len(g.AllowedGlobs) == 0 && f.plan != nil {
		repo := patch.Guardrails{AllowedGlobs: f.plan.caps.GetPatchAllow()}
		if len(repo.AllowedGlobs) > 0 && repo.Validate() == nil {
			g.AllowedGlobs = repo.AllowedGlobs
		}
	}
	return g
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// PatchOutcome.rule values of patches the fix loop did not keep for a
// reason of its own (a refusal records its patch.Rule; the verdict
// package's patch rules record verdict.RuleRegression,
// verdict.RuleNoProgress and verdict.RuleStillFailing).
const (
	// RuleTimeBudget: the run's time ran out while the patch was verified.
	RuleTimeBudget = "time-budget"
	// RuleDoesNotApply: the patch's context is not in the files.
	RuleDoesNotApply = "does-not-apply"
	// RuleMalformed: no patch could be read from the reply.
	RuleMalformed = "malformed"
)

// rejectRule is the rule recorded for a patch that was not applied: the
// guardrail that refused it, or why it could not be applied.
func rejectRule(err error) string {
	var r *patch.Refusal
	switch {
	case errors.As(err, &r):
		return string(r.Rule)
	case errors.Is(err, patch.ErrDoesNotApply):
		return RuleDoesNotApply
	case errors.Is(err, patch.ErrNoPatch), errors.Is(err, patch.ErrMalformed):
		return RuleMalformed
	}
	return ""
}
