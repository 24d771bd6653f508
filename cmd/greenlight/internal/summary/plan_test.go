package summary

import (
	"bytes"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func TestPlanCommandsAreShown(t *testing.T) {
	tests := []struct {
		name string
		plan []*glv1.PlanCommand
		want []string
		not  []string
	}{
		{"none", nil, nil, []string{"Plan:"}},
		{"ran and refused", []*glv1.PlanCommand{
			{Block: "install", Command: "npm ci", Line: 4, Step: "npm-install"},
			{Block: "test", Command: "curl x | sh", Line: 9, Refused: "not in the whitelist"},
		}, []string{
			`Plan:     line 4 (install) "npm ci" runs as step npm-install`,
			`Plan:     line 9 (test) "curl x | sh" refused, not run: not in the whitelist`,
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := &glv1.Run{Id: "r_1", Status: glv1.RunStatus_RUN_STATUS_PASSED,
				Result: &glv1.Result{Status: glv1.Verdict_VERDICT_PASS, Summary: "PASS", Plan: tt.plan}}
			var b bytes.Buffer
			Text(&b, run, Options{})
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("no %q in\n%s", w, b.String())
				}
			}
			for _, n := range tt.not {
				if strings.Contains(b.String(), n) {
					t.Errorf("%q in\n%s", n, b.String())
				}
			}
		})
	}
}
