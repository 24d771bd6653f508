package engine

import (
	"fmt"
	"slices"
	"time"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// tierOf treats an unspecified tier as tier0: a step nobody tiered is part
// of the baseline gate.
func tierOf(s *glv1.Step) glv1.Tier {
	if s.GetTier() == glv1.Tier_TIER_UNSPECIFIED {
		return glv1.Tier_TIER_0
	}
	return s.GetTier()
}

// byTier returns a copy of p whose steps run tier by tier: tier0's steps,
// then tier1's, then tier2's, each tier keeping discovery's order (install
// before build before tests). The executor stops at the first failing
// step, so a failing tier0 never lets tier1 start.
func byTier(p *glv1.Pipeline) *glv1.Pipeline {
	out := proto.Clone(p).(*glv1.Pipeline)
	slices.SortStableFunc(out.Steps, func(a, b *glv1.Step) int { return int(tierOf(a)) - int(tierOf(b)) })
	return out
}

// skippedTiers lists, in order, the tiers of which some step did not run to
// completion because the time budget ran out, with the reason to record.
// budgetHit says the budget was exhausted (see budgetExhausted).
func skippedTiers(steps []*glv1.Step, results []*glv1.StepResult, budget, elapsed time.Duration, budgetHit bool) []*glv1.TierSkipped {
	if !budgetHit {
		return nil
	}
	type tally struct{ total, missed int }
	tiers := map[glv1.Tier]*tally{}
	var order []glv1.Tier
	for i, s := range steps {
		t := tierOf(s)
		if tiers[t] == nil {
			tiers[t] = &tally{}
			order = append(order, t)
		}
		tiers[t].total++
		if i >= len(results) || !ranToCompletion(results[i]) {
			tiers[t].missed++
		}
	}
	var out []*glv1.TierSkipped
	for _, t := range order {
		if n := tiers[t]; n.missed > 0 {
			out = append(out, &glv1.TierSkipped{Tier: t, Reason: fmt.Sprintf(
				"time budget of %s exhausted after %s: %d of %d %s step(s) did not run to completion",
				budget, elapsed.Round(100*time.Millisecond), n.missed, n.total, tierName(t))})
		}
	}
	return out
}

// ranToCompletion reports whether a step ran and ended by itself.
func ranToCompletion(r *glv1.StepResult) bool {
	switch r.GetStatus() {
	case glv1.StepStatus_STEP_STATUS_OK, glv1.StepStatus_STEP_STATUS_FAILED, glv1.StepStatus_STEP_STATUS_OOM_KILLED:
		return true
	}
	return false
}

// budgetExhausted reports whether an execution ended because the time
// budget ran out rather than because a step failed: the budget's time has
// passed and no step failed by itself. (A step that could not even start —
// the sandbox was still being prepared when the budget ran out — is ERROR
// and counts as cut by the budget.)
func budgetExhausted(results []*glv1.StepResult, runTimeout, elapsed time.Duration) bool {
	if elapsed < runTimeout {
		return false
	}
	for _, r := range results {
		switch r.GetStatus() {
		case glv1.StepStatus_STEP_STATUS_FAILED, glv1.StepStatus_STEP_STATUS_OOM_KILLED:
			return false
		}
	}
	return true
}

// tierName spells a tier the way the seeds do.
func tierName(t glv1.Tier) string {
	return "tier" + display.Enum(t)
}
