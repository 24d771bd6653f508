package score

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// TestSecurityComponent: the security component follows the findings'
// severities, and a security step never changes the total, the level or
// the other components (a clean scan adds no lint points, a failing one
// takes none away).
func TestSecurityComponent(t *testing.T) {
	okTest := StepOutcome{
		Step:   &glv1.Step{Name: "go-test", Phase: glv1.Phase_PHASE_TEST, Level: glv1.Level_LEVEL_L4},
		Result: &glv1.StepResult{Name: "go-test", Status: glv1.StepStatus_STEP_STATUS_OK},
		Report: &parse.StepReport{HasTests: true, Counts: parse.Counts{Passed: 3}},
	}
	scan := func(status glv1.StepStatus, sev ...string) StepOutcome {
		rep := &parse.StepReport{SecurityFindings: len(sev)}
		for _, s := range sev {
			rep.Failures = append(rep.Failures, parse.Failure{Kind: glv1.FailureKind_FAILURE_KIND_SECURITY, Severity: s, Rule: "r"})
		}
		return StepOutcome{
			Step:   &glv1.Step{Name: "secret-scan", Phase: glv1.Phase_PHASE_SECURITY, Level: glv1.Level_LEVEL_L2, Optional: true},
			Result: &glv1.StepResult{Name: "secret-scan", Status: status},
			Report: rep,
		}
	}
	base := Compute(Input{Steps: []StepOutcome{okTest}})
	cases := []struct {
		name     string
		scan     StepOutcome
		security float64
		findings int32
	}{
		{"clean", scan(glv1.StepStatus_STEP_STATUS_OK), 1, 0},
		{"low and medium", scan(glv1.StepStatus_STEP_STATUS_FAILED, parse.SeverityLow, parse.SeverityMedium), 0.5, 2},
		{"a high one", scan(glv1.StepStatus_STEP_STATUS_FAILED, parse.SeverityLow, parse.SeverityHigh), 0, 2},
		{"failed, nothing parsed", scan(glv1.StepStatus_STEP_STATUS_FAILED), 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Compute(Input{Steps: []StepOutcome{okTest, tc.scan}})
			if !s.GetSecurityRan() || s.GetSecurity() != tc.security || s.GetSecurityFindings() != tc.findings {
				t.Errorf("security ran %v %g (%d findings), want %g (%d)", s.GetSecurityRan(), s.GetSecurity(), s.GetSecurityFindings(), tc.security, tc.findings)
			}
			if s.GetTotal() != base.GetTotal() || s.GetLint() != base.GetLint() || s.GetLevel() != base.GetLevel() || s.GetNoCritical() != base.GetNoCritical() {
				t.Errorf("total %g lint %g level %v no-critical %g; without the scan %g %g %v %g",
					s.GetTotal(), s.GetLint(), s.GetLevel(), s.GetNoCritical(), base.GetTotal(), base.GetLint(), base.GetLevel(), base.GetNoCritical())
			}
			if !strings.Contains(s.GetRule(), "security ") {
				t.Errorf("rule does not name the security component: %s", s.GetRule())
			}
		})
	}
	if base.GetSecurityRan() || strings.Contains(base.GetRule(), "security") {
		t.Errorf("no scan ran, yet: %+v", base)
	}
	// Only a scan ran: nothing about the code ran.
	only := Compute(Input{Steps: []StepOutcome{scan(glv1.StepStatus_STEP_STATUS_OK)}})
	if only.GetTotal() != NeedsReview {
		t.Errorf("only a scan ran: total %g, want %g", only.GetTotal(), NeedsReview)
	}
}
