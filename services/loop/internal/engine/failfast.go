package engine

import (
	"context"
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
	"github.com/greenlight-dev/greenlight/services/loop/internal/transition"
	"github.com/greenlight-dev/greenlight/services/loop/internal/verdict"
)

// probeSuffix names a fail-fast probe step after the step it narrows.
const probeSuffix = ":probe"

// A fail-fast round verifies a patched snapshot in one execution of the
// pinned pipeline with the probe steps (the failing test steps narrowed to
// their failing tests) inserted right before the first of those test
// steps: the install and build steps before them have run (the dependency
// cache restores the installs), and a patch that fixes none of the failing
// tests fails its probe step, which stops the execution there. Otherwise
// the probe passes and the same execution goes on through the whole
// pipeline, which alone decides the verdict; when the probe fixed only some
// tests (it failed, so the rest was skipped), the pipeline runs again alone.

// probe is the fail-fast part of a patched snapshot's verification.
type probe struct {
	// steps are the narrowed steps, in pipeline order; narrowed says what
	// each stands for.
	steps    []*glv1.Step
	narrowed []narrowedStep
	// at is the pipeline index they run before.
	at int
	// judge reads the probe steps' results (by their place in steps).
	judge func(ctx context.Context, results []*glv1.StepResult, arts []*glv1.Artifact) probeVerdict
}

// narrowedStep is a probe step standing for a failing test step.
type narrowedStep struct {
	// step is the name of the test step it narrows; failing is how many
	// of its tests failed before the patch.
	step    string
	failing int
}

// probeVerdict is what a fail-fast probe found: why the patch fixes none
// of the failing tests ("" when it fixes some, or when the probe could not
// tell: the full verification decides), and the transitions of the tests
// it ran.
type probeVerdict struct {
	why         string
	transitions *glv1.Transitions
}

// failFastOn: fail-fast rounds are on unless the options turn them off.
func failFastOn(o *glv1.FixOptions) bool { return o.FailFast == nil || o.GetFailFast() }

// probeOf builds the probe from the current verification: each failing
// test step narrowed to its failing tests. ok is false when no step can be
// narrowed, or when a required step that ran failed and cannot be narrowed
// (a build, lint or type check the patch may have fixed: only the full
// pipeline can tell).
func probeOf(cur *verification) (*probe, bool) {
	p := &probe{at: -1}
	for i, o := range cur.outcomes {
		cmd, ok := narrowedCommand(o)
		if !ok {
			if failedOtherwise(o) {
				return nil, false
			}
			continue
		}
		if p.at < 0 {
			p.at = i
		}
		rs := rerunStep(o.Step, cmd)
		rs.Name = strings.TrimSuffix(rs.GetName(), rerunSuffix) + probeSuffix
		p.steps = append(p.steps, rs)
		p.narrowed = append(p.narrowed, narrowedStep{step: o.Step.GetName(), failing: o.Report.Counts.Failed + o.Report.Counts.Errors})
	}
	return p, len(p.steps) > 0
}

// failedOtherwise is a required step that ran and failed (or could not
// run) and is not a narrowable test step. A step the executor skipped
// after an earlier failure is not: it stays skipped while that failure
// stands, which is what the probe checks.
func failedOtherwise(o score.StepOutcome) bool {
	if o.Optional() || o.Result == nil {
		return false
	}
	switch o.Status() {
	case glv1.StepStatus_STEP_STATUS_OK, glv1.StepStatus_STEP_STATUS_SKIPPED, glv1.StepStatus_STEP_STATUS_CANCELED:
		return false
	}
	return !o.EffectiveOK()
}

// combine is pl with the probe steps inserted before index at, and the
// steps before at that a rolled-back round need not wait for moved after
// them (deferredUntilProbe); eventIndex gives each step its run-event index
// (the pipeline's steps keep theirs, the probe steps take fresh ones past
// it) and orig maps each step back to its pipeline index (-1: a probe
// step).
func (p *probe) combine(pl *glv1.Pipeline) (combined *glv1.Pipeline, eventIndex []int32, orig []int) {
	combined = proto.Clone(pl).(*glv1.Pipeline)
	steps := pl.GetSteps()
	var before, deferred []int
	for i := range steps[:p.at] {
		if deferredUntilProbe(steps[i]) {
			deferred = append(deferred, i)
		} else {
			before = append(before, i)
		}
	}
	order := append(before, -1)
	order = append(order, deferred...)
	for i := p.at; i < len(steps); i++ {
		order = append(order, i)
	}
	combined.Steps = nil
	for _, i := range order {
		if i >= 0 {
			combined.Steps = append(combined.Steps, steps[i])
			eventIndex, orig = append(eventIndex, int32(i)), append(orig, i)
			continue
		}
		for k, s := range p.steps {
			combined.Steps = append(combined.Steps, s)
			eventIndex, orig = append(eventIndex, int32(len(steps)+k)), append(orig, -1)
		}
	}
	return combined, eventIndex, orig
}

// deferredUntilProbe says whether a step planned before the probe can run
// after it instead: a security scan (read-only, it produces nothing a test
// needs) or an advisory lint or type check (its result decides nothing,
// and mypy alone can take longer than the probe). A patch the probe rolls
// back then costs only the installs, the builds and the failing tests;
// when the probe passes they run next, in the same execution, so the full
// verification is the same. Required lint and type checks stay in place:
// a CI command may build what the tests use; of the builds only Python's
// compileall check moves (it writes nothing but __pycache__).
func deferredUntilProbe(s *glv1.Step) bool {
	switch s.GetPhase() {
	case glv1.Phase_PHASE_SECURITY:
		return true
	case glv1.Phase_PHASE_LINT, glv1.Phase_PHASE_TYPECHECK:
		return s.GetOptional()
	case glv1.Phase_PHASE_BUILD:
		return pylaunch.IsCompileAll(s.GetCommand())
	}
	return false
}

// split separates a combined execution: the probe steps' results, and the
// execution as the pipeline alone would have produced it.
func (p *probe) split(ex *execution, orig []int, n int) (probeResults []*glv1.StepResult, full *execution) {
	full = &execution{results: make([]*glv1.StepResult, n), finished: ex.finished, elapsed: ex.elapsed,
		logs: ex.logs, executor: ex.executor, retries: ex.retries}
	for i, res := range ex.results {
		if orig[i] < 0 {
			probeResults = append(probeResults, res)
		} else {
			full.results[orig[i]] = res
		}
	}
	return probeResults, full
}

// probeStopped: a probe step ran and did not pass, so the executor
// skipped the rest of the pipeline.
func probeStopped(results []*glv1.StepResult) bool {
	for _, res := range results {
		if st := res.GetStatus(); res != nil && st != glv1.StepStatus_STEP_STATUS_OK && st != glv1.StepStatus_STEP_STATUS_SKIPPED {
			return true
		}
	}
	return false
}

// probeJudge returns the judge of a fix run's probes: the patch fixes
// none of the failing tests when every probe step ran and failed as many
// tests as before the patch.
func (f *fixer) probeJudge(p *probe) func(context.Context, []*glv1.StepResult, []*glv1.Artifact) probeVerdict {
	return func(ctx context.Context, results []*glv1.StepResult, arts []*glv1.Artifact) probeVerdict {
		var parts []string
		probed := &transition.Side{Tests: map[transition.Key]parse.Outcome{}}
		for k, n := range p.narrowed {
			res := results[k]
			var rep *parse.StepReport
			if res.GetStatus() == glv1.StepStatus_STEP_STATUS_FAILED {
				if r, err := f.r.parseStep(ctx, score.StepOutcome{Step: p.steps[k], Result: res}, nil, arts); err == nil {
					rep = r
				}
			}
			now, still := verdict.ProbeStillFails(res, rep, n.failing)
			if !still {
				return probeVerdict{} // some of its tests pass now, or it cannot tell: the full pipeline decides
			}
			for _, t := range rep.Inventory {
				probed.Tests[transition.Key{Step: n.step, ID: t.ID}] = t
			}
			part := fmt.Sprintf("%s: %d failing (%d before the patch)", res.GetName(), now, n.failing)
			if fl, ok := f.firstShown(rep.Failures); ok {
				part += fmt.Sprintf(" (%s %s:%d: %s)", fl.Test, fl.File, fl.Line, firstLine(fl.Message))
			}
			parts = append(parts, part)
		}
		return probeVerdict{
			why:         "the tests that failed before the patch still fail with it: " + strings.Join(parts, "; "),
			transitions: transition.Probed(transition.SideOf(f.baseline.outcomes), probed),
		}
	}
}
