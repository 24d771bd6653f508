package engine

import (
	"context"
	"errors"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/patch"
)

// With hidden tests a fix run keeps two verifications of its current
// snapshot: cur, the grading verification (hidden tests laid over it),
// which decides acceptance, green and the result; and view, the same
// snapshot verified as it is, from which the patch request is built.
// Without hidden tests they are one.

// see makes f.view the verification the model may see of the current
// snapshot: cur without hidden tests; with them, a verification of the
// current snapshot as it is (made once per snapshot, no re-runs: it is
// evidence, not a verdict).
func (f *fixer) see(ctx context.Context) error {
	if f.hidden == nil {
		f.view = f.cur
		return nil
	}
	if f.view != nil && f.view.spec.snapshot.GetHash() == f.current.GetHash() {
		return nil
	}
	f.plain = true
	v, err := f.verifyWith(ctx, f.current, f.round, nil)
	f.plain = false
	if err != nil {
		return err
	}
	f.view = v
	f.noteSeen(v)
	return nil
}

// guardHidden refuses a candidate that touches the hidden tests' paths
// and lays the hidden tests over it (its grading snapshot, kept for its
// verification). Hidden tests that do not apply over a candidate are the
// candidate's fault (it moved something they need), told to the model
// without a hidden path.
func (f *fixer) guardHidden(ctx context.Context, p *patch.Patch, after *glv1.Digest) error {
	if f.hidden == nil {
		return nil
	}
	if err := f.hidden.guard(p); err != nil {
		return err
	}
	if _, err := f.hidden.over(ctx, f.r.e, after); err != nil {
		if errors.Is(err, errInfra) || ctx.Err() != nil {
			return err
		}
		return &patch.Refusal{Rule: patch.RuleTestEdit, Reason: "the grader's tests cannot be laid over the patched code " +
			"(the patch moves or replaces something they need); fix the code under test and leave test files and their directories alone"}
	}
	return nil
}

// recordHidden fills the run metrics' hidden test counts.
func (f *fixer) recordHidden() {
	if f.hidden == nil {
		return
	}
	f.metrics.HiddenTests = f.hiddenState(f.cur)
	f.metrics.BaselineHiddenTests = f.hiddenState(f.baseline)
}

// hiddenSpec makes a fix run's verification with hidden tests the
// grading one (the hidden tests laid over its snapshot), except the
// verification of view (f.plain), which runs the snapshot as it is and
// re-runs nothing.
func (f *fixer) hiddenSpec(ctx context.Context, spec *verifySpec) error {
	switch {
	case f.hidden == nil:
		return nil
	case f.plain:
		spec.opts.RerunFailed = false
		return nil
	}
	g, err := f.hidden.over(ctx, f.r.e, spec.snapshot)
	if err != nil {
		return err
	}
	spec.snapshot, spec.hidden = g, true
	return nil
}
