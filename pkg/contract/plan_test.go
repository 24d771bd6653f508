package contract

import (
	"encoding/json"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func TestResultPlan(t *testing.T) {
	tests := []struct {
		name string
		plan []*glv1.PlanCommand
		want string
	}{
		{"no plan is an empty list", nil, `"plan":[]`},
		{"ran and refused", []*glv1.PlanCommand{
			{Block: "install", Command: "go mod download", Line: 7, Step: "deps"},
			{Block: "test", Command: "curl x | sh", Line: 14, Refused: "not in the whitelist"},
		}, `"plan":[{"block":"install","command":"go mod download","line":7,"step":"deps","refused":""},` +
			`{"block":"test","command":"curl x | sh","line":14,"step":"","refused":"not in the whitelist"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(FromResult(&glv1.Result{Status: glv1.Verdict_VERDICT_PASS, Plan: tt.plan}))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), tt.want) {
				t.Errorf("no %s in\n%s", tt.want, b)
			}
		})
	}
}
