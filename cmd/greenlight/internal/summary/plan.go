package summary

import (
	"fmt"
	"io"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// planText writes what became of a plan document's commands: the steps
// they ran as, and each refused command with its line and reason, so a
// refusal is read next to the verdict and never mistaken for a run step.
func planText(w io.Writer, cmds []*glv1.PlanCommand) {
	if len(cmds) == 0 {
		return
	}
	fmt.Fprintln(w)
	for _, c := range cmds {
		if c.GetRefused() != "" {
			fmt.Fprintf(w, "Plan:     line %d (%s) %q refused, not run: %s\n", c.GetLine(), c.GetBlock(), c.GetCommand(), c.GetRefused())
			continue
		}
		fmt.Fprintf(w, "Plan:     line %d (%s) %q runs as step %s\n", c.GetLine(), c.GetBlock(), c.GetCommand(), c.GetStep())
	}
}
