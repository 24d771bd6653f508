package contract

import (
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// fixOf renders a fix run's repair record.
func fixOf(run *glv1.Run) *Fix {
	m := run.GetMetrics()
	t := run.GetFixOptions().GetTargets()
	return &Fix{
		Green: m.GetGreen(), Rounds: m.GetRounds(), AttemptsToGreen: m.GetAttemptsToGreen(),
		TimeToGreenMS: msOf(m.GetTimeToGreen()), Rollbacks: m.GetRollbacks(), PatchLines: m.GetPatchLines(),
		Reruns: m.GetReruns(), StopReason: m.GetStopReason(), Usage: usageOf(m.GetUsage()),
		Targets:           Targets{FailToPass: list(t.GetFailToPass()), PassToPass: list(t.GetPassToPass()), Steps: list(t.GetSteps())},
		BaselineInventory: inventoryOf(m.GetBaselineInventory()), Transitions: transitionsOf(m.GetTransitions()),
		Patches: mapList(run.GetPatches(), patchOf), FinalSnapshot: digestOf(run.GetCurrentSnapshot()),
		HiddenTests: hiddenOf(m.GetHiddenTests()), BaselineHiddenTests: hiddenOf(m.GetBaselineHiddenTests()),
	}
}

// hiddenOf converts hidden test counts; nil when there were none.
func hiddenOf(h *glv1.HiddenTests) *HiddenTests {
	if h == nil {
		return nil
	}
	return &HiddenTests{Passed: h.GetPassed(), Failed: h.GetFailed(), Missing: h.GetMissing(), Failing: list(h.GetFailing())}
}

func usageOf(u *glv1.Usage) Usage {
	return Usage{PromptTokens: u.GetPromptTokens(), CompletionTokens: u.GetCompletionTokens(), Cost: u.GetCost()}
}

func patchOf(p *glv1.PatchOutcome) Patch {
	return Patch{Attempt: p.GetAttempt(), Applied: p.GetApplied(), RolledBack: p.GetRolledBack(), Rule: p.GetRule(),
		Reason: p.GetReason(), Format: PatchFormat(p.GetFormat()), Files: list(p.GetFiles()),
		LinesAdded: p.GetLinesAdded(), LinesRemoved: p.GetLinesRemoved(), FailingBefore: p.GetFailingBefore(),
		FailingAfter: p.GetFailingAfter(), Diff: p.GetDiff(), Usage: usageOf(p.GetUsage()),
		Transitions: transitionsOf(p.GetTransitions()), SnapshotBefore: digestOf(p.GetSnapshotBefore()),
		SnapshotAfter: digestOf(p.GetSnapshotAfter()), HiddenTests: hiddenOf(p.GetHiddenTests())}
}

// transitionsOf converts a comparison; nil when there was none.
func transitionsOf(t *glv1.Transitions) *Transitions {
	if t == nil {
		return nil
	}
	return &Transitions{
		Resolution: Resolution(t.GetResolution()), FailToPass: t.GetFailToPass(), PassToPass: t.GetPassToPass(),
		PassToFail: t.GetPassToFail(), FailToFail: t.GetFailToFail(), NewTests: t.GetNewTests(),
		Disappeared: t.GetDisappeared(), Complete: t.GetComplete(), Changes: mapList(t.GetChanges(), transitionOf),
		ChangesOmitted: t.GetChangesOmitted(), TargetFailToPass: t.GetTargetFailToPass(),
		TargetFailToPassPassed: t.GetTargetFailToPassPassed(), TargetPassToPass: t.GetTargetPassToPass(),
		TargetPassToPassPassed: t.GetTargetPassToPassPassed(), FailingFailToPass: list(t.GetFailingFailToPass()),
		FailingPassToPass: list(t.GetFailingPassToPass()), FailingTargetSteps: list(t.GetFailingTargetSteps()),
		FailingOutsideTarget: list(t.GetFailingOutsideTarget()),
	}
}

func transitionOf(t *glv1.TestTransition) Transition {
	return Transition{Step: t.GetStep(), ID: t.GetId(), Kind: TransitionKind(t.GetKind()),
		Before: TestStatus(t.GetBefore()), After: TestStatus(t.GetAfter()), Target: t.GetTarget()}
}
