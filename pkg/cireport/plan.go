package cireport

import (
	"fmt"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// mdPlan lists the plan document's commands (`verify --plan`): the step
// each ran as, or that it was refused and why. A plan is caller text: its
// commands go into code spans, clipped, like sandbox text.
func mdPlan(b *strings.Builder, res *glv1.Result) {
	if len(res.GetPlan()) == 0 {
		return
	}
	b.WriteString("### Plan document\n\n| Line | Block | Command | Outcome |\n|---|---|---|---|\n")
	for _, c := range res.GetPlan() {
		outcome := "runs as " + code(clean(c.GetStep()))
		if c.GetRefused() != "" {
			outcome = "🚫 refused, not run: " + mdText(clip(clean(c.GetRefused()), cellWidth))
		}
		fmt.Fprintf(b, "| %d | %s | %s | %s |\n", c.GetLine(), mdText(clean(c.GetBlock())),
			cell(code(clip(clean(c.GetCommand()), cellWidth))), cell(outcome))
	}
	b.WriteString("\n")
}
