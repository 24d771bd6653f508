package score

import (
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func (o StepOutcome) name() string {
	if o.Result.GetName() != "" {
		return o.Result.GetName()
	}
	return o.Step.GetName()
}

func (o StepOutcome) phase() glv1.Phase {
	if p := o.Step.GetPhase(); p != glv1.Phase_PHASE_UNSPECIFIED {
		return p
	}
	return o.Result.GetPhase()
}

// level is the step's verification level, derived from its phase when unset.
func (o StepOutcome) level() glv1.Level {
	if l := o.Step.GetLevel(); l != glv1.Level_LEVEL_UNSPECIFIED {
		return l
	}
	if l := o.Result.GetLevel(); l != glv1.Level_LEVEL_UNSPECIFIED {
		return l
	}
	return PhaseLevel(o.phase())
}

// PhaseLevel is the default level of a phase.
func PhaseLevel(p glv1.Phase) glv1.Level {
	switch p {
	case glv1.Phase_PHASE_TEST:
		return glv1.Level_LEVEL_L4
	case glv1.Phase_PHASE_BUILD, glv1.Phase_PHASE_SMOKE:
		return glv1.Level_LEVEL_L3
	case glv1.Phase_PHASE_LINT, glv1.Phase_PHASE_TYPECHECK, glv1.Phase_PHASE_SECURITY:
		return glv1.Level_LEVEL_L2
	}
	return glv1.Level_LEVEL_UNSPECIFIED
}

// Optional reports whether the step is informational (its failure does not fail the verdict).
func (o StepOutcome) Optional() bool { return o.Step.GetOptional() || o.Result.GetOptional() }

// Name is the step's name.
func (o StepOutcome) Name() string { return o.name() }

// Level is the step's verification level.
func (o StepOutcome) Level() glv1.Level { return o.level() }

// Status is the step's executed status.
func (o StepOutcome) Status() glv1.StepStatus { return status(o) }

// EffectiveOK reports whether the step finished OK, counting a step whose
// only failures were flaky tests that passed on re-run.
func (o StepOutcome) EffectiveOK() bool { return effectiveOK(o) }

func status(o StepOutcome) glv1.StepStatus {
	if o.Result == nil {
		return glv1.StepStatus_STEP_STATUS_SKIPPED
	}
	return o.Result.GetStatus()
}

// ran reports whether the step executed (whatever its outcome).
func ran(st glv1.StepStatus) bool {
	switch st {
	case glv1.StepStatus_STEP_STATUS_UNSPECIFIED, glv1.StepStatus_STEP_STATUS_SKIPPED, glv1.StepStatus_STEP_STATUS_ERROR:
		return false
	}
	return true
}

// Ran reports whether the step executed.
func (o StepOutcome) Ran() bool { return ran(status(o)) }

func effectiveOK(o StepOutcome) bool {
	st := status(o)
	return st == glv1.StepStatus_STEP_STATUS_OK || (o.Report != nil && o.Report.PassedOnRerun && st == glv1.StepStatus_STEP_STATUS_FAILED)
}

func isTestStep(p glv1.Phase, l glv1.Level) bool {
	return p == glv1.Phase_PHASE_TEST || (p == glv1.Phase_PHASE_UNSPECIFIED && l == glv1.Level_LEVEL_L4)
}
