package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.uber.org/zap"
	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
	"github.com/greenlight-dev/greenlight/services/loop/internal/transition"
)

// RuleStillFailing rolls back a patch after which none of the tests that
// failed before it passes (FixOptions.fail_fast).
const RuleStillFailing = "still-failing"

// probeSuffix names a fail-fast probe step after the step it narrows.
const probeSuffix = ":probe"

// probe is the fail-fast pipeline of a patched snapshot.
type probe struct {
	pipeline *glv1.Pipeline
	// narrowed are the narrowed test steps, in pipeline order.
	narrowed []narrowedStep
}

// narrowedStep is a probe step standing for a failing test step.
type narrowedStep struct {
	// step is the name of the test step it narrows.
	step string
	// index is its place in the probe pipeline; failing is how many of
	// its tests failed before the patch.
	index, failing int
}

// probeOf builds the probe from the current verification: its install
// steps as they are, then each failing test step narrowed to its failing
// tests. ok is false when no step can be narrowed, or when a required
// step that ran failed and cannot be narrowed (a build, lint or type
// check the patch may have fixed: only the full pipeline can tell).
func probeOf(cur *verification) (probe, bool) {
	p := probe{pipeline: proto.Clone(cur.pipeline).(*glv1.Pipeline)}
	p.pipeline.Steps = setupSteps(cur, len(cur.pipeline.GetSteps()))
	for _, o := range cur.outcomes {
		cmd, ok := narrowedCommand(o)
		if !ok {
			if failedOtherwise(o) {
				return probe{}, false
			}
			continue
		}
		rs := rerunStep(o.Step, cmd)
		rs.Name = strings.TrimSuffix(rs.GetName(), rerunSuffix) + probeSuffix
		p.narrowed = append(p.narrowed, narrowedStep{step: o.Step.GetName(), index: len(p.pipeline.Steps),
			failing: o.Report.Counts.Failed + o.Report.Counts.Errors})
		p.pipeline.Steps = append(p.pipeline.Steps, rs)
	}
	return p, len(p.narrowed) > 0
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

// probeVerdict is what a fail-fast probe found: why the patch fixes none
// of the failing tests ("" when it fixes some, or when the probe could not
// tell: the full verification then decides), and the transitions of the
// tests it ran.
type probeVerdict struct {
	why         string
	transitions *glv1.Transitions
}

// failFast runs the probe on snapshot and reads it.
func (f *fixer) failFast(ctx context.Context, snapshot *glv1.Digest) (probeVerdict, error) {
	p, ok := probeOf(f.cur)
	if !ok {
		return probeVerdict{}, nil
	}
	left := time.Until(f.deadline)
	if left <= 0 {
		return probeVerdict{}, nil
	}
	base := int32(len(f.cur.pipeline.GetSteps()) + len(f.cur.reruns) + 1)
	eventIndex := make([]int32, len(p.pipeline.GetSteps()))
	for i := range eventIndex {
		eventIndex[i] = base + int32(i)
	}
	ex, err := f.r.executeAs(ctx, snapshot, p.pipeline, f.cur.spec.opts, left, eventIndex)
	if ctx.Err() != nil {
		return probeVerdict{}, ctx.Err()
	}
	if err != nil {
		if errors.Is(err, errInfra) {
			f.r.log.Warn("the fail-fast probe could not run; the full verification decides", zap.Error(err))
			return probeVerdict{}, nil
		}
		return probeVerdict{}, err
	}
	return f.stillFailing(ctx, p, ex), nil
}

// stillFailing reads the probe: no reason unless every narrowed step ran
// and failed as many tests as before the patch.
func (f *fixer) stillFailing(ctx context.Context, p probe, ex *execution) probeVerdict {
	var parts []string
	probed := &transition.Side{Tests: map[transition.Key]parse.Outcome{}}
	for _, n := range p.narrowed {
		i, before := n.index, n.failing
		res := ex.results[i]
		if res.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED {
			return probeVerdict{} // it passed, or did not run: the full pipeline decides
		}
		o := score.StepOutcome{Step: p.pipeline.GetSteps()[i], Result: res}
		rep, err := f.r.parseStep(ctx, o, nil, ex.finished.GetArtifacts())
		if err != nil || rep == nil {
			return probeVerdict{}
		}
		if now := rep.Counts.Failed + rep.Counts.Errors; now < before {
			return probeVerdict{} // some of its failing tests pass now
		}
		for _, t := range rep.Inventory {
			probed.Tests[transition.Key{Step: n.step, ID: t.ID}] = t
		}
		parts = append(parts, fmt.Sprintf("%s: %d failing (%d before the patch)", res.GetName(), rep.Counts.Failed+rep.Counts.Errors, before))
		if len(rep.Failures) > 0 {
			fl := rep.Failures[0]
			parts[len(parts)-1] += fmt.Sprintf(" (%s %s:%d: %s)", fl.Test, fl.File, fl.Line, firstLine(fl.Message))
		}
	}
	return probeVerdict{
		why:         "the tests that failed before the patch still fail with it: " + strings.Join(parts, "; "),
		transitions: transition.Probed(transition.SideOf(f.baseline.outcomes), probed),
	}
}

// failFastOn: fail-fast rounds are on unless the options turn them off.
func failFastOn(o *glv1.FixOptions) bool { return o.FailFast == nil || o.GetFailFast() }
