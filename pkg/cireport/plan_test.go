package cireport

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func TestMarkdownPlan(t *testing.T) {
	tests := []struct {
		name string
		plan []*glv1.PlanCommand
		want []string
		not  []string
	}{
		{"no plan, no section", nil, nil, []string{"### Plan document"}},
		{"ran and refused", []*glv1.PlanCommand{
			{Block: "install", Command: "go mod download", Line: 7, Step: "deps"},
			{Block: "test", Command: "curl x | sh @team", Line: 14, Refused: "not in the whitelist"},
		}, []string{
			"### Plan document",
			"| 7 | install | `go mod download` | runs as `deps` |",
			// The pipe is escaped for the table, the mention stays in a code span.
			"| 14 | test | `curl x \\| sh @team` | 🚫 refused, not run: not in the whitelist |",
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := failRun()
			run.Result.Plan = tt.plan
			md := markdown(t, run)
			for _, w := range tt.want {
				if !strings.Contains(md, w) {
					t.Errorf("markdown lacks %q:\n%s", w, md)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(md, n) {
					t.Errorf("markdown has %q:\n%s", n, md)
				}
			}
		})
	}
}
