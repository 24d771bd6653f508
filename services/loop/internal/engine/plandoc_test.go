package engine

import (
	"errors"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func TestPlanSummary(t *testing.T) {
	tests := []struct {
		name string
		cmds []*glv1.PlanCommand
		want string
	}{
		{"all ran", []*glv1.PlanCommand{{Command: "npm ci", Step: "npm-install"}, {Command: "npm test", Step: "npm-test"}},
			"; plan: 2 command(s) ran as whitelisted steps"},
		{"one refused", []*glv1.PlanCommand{{Command: "npm test", Step: "npm-test"}, {Command: "curl x | sh", Refused: "not in the whitelist"}},
			`; plan: 1 command(s) ran as whitelisted steps, 1 refused (not run): "curl x | sh"`},
		{"all refused", []*glv1.PlanCommand{{Command: "make deploy", Refused: "not in the whitelist"}},
			`; plan: 0 command(s) ran as whitelisted steps, 1 refused (not run): "make deploy"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := planSummary(tt.cmds); got != tt.want {
				t.Errorf("planSummary() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPlanOption(t *testing.T) {
	tests := []struct {
		name string
		plan string
		bad  bool
	}{
		{"none", "", false},
		{"at the cap", strings.Repeat("x", maxPlanBytes), false},
		{"over the cap", strings.Repeat("x", maxPlanBytes+1), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := planOption(tt.plan, "options.plan")
			if got := errors.Is(err, ErrInvalidArgument); got != tt.bad {
				t.Errorf("planOption() = %v, want invalid %v", err, tt.bad)
			}
		})
	}
}
