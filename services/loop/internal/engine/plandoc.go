package engine

import (
	"fmt"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// planOption refuses a plan document discovery would refuse for its size
// (maxPlanBytes is discovery's plandoc.MaxBytes too), before a run is
// stored rather than as the run's ERROR.
func planOption(plan, field string) error {
	if len(plan) > maxPlanBytes {
		return fmt.Errorf("%w: %s is %d bytes; a plan document may have at most %d", ErrInvalidArgument, field, len(plan), maxPlanBytes)
	}
	return nil
}

// planSummary is the summary's note on a plan document's commands: how
// many ran as whitelisted steps and which were refused, so a refusal is
// seen where the verdict is read, not only in the pipeline's notes.
func planSummary(cmds []*glv1.PlanCommand) string {
	ran := 0
	var refused []string
	for _, c := range cmds {
		if c.GetRefused() != "" {
			refused = append(refused, fmt.Sprintf("%q", c.GetCommand()))
			continue
		}
		ran++
	}
	s := fmt.Sprintf("; plan: %d command(s) ran as whitelisted steps", ran)
	if len(refused) > 0 {
		s += fmt.Sprintf(", %d refused (not run): %s", len(refused), strings.Join(refused, ", "))
	}
	return s
}
