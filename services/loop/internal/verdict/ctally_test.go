package verdict

import (
	"context"
	"os"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// TestCTallyExitZeroFails runs the report rules on captured C test
// programs: one that prints `Tests failed: 3` and exits 0 (parson's style)
// FAILS naming its failed checks at their file:line, and the passing run of
// the same programs stays OK.
func TestCTallyExitZeroFails(t *testing.T) {
	for _, c := range []struct {
		log, reason string
		first       string
	}{
		{"csummary/fail-exit0.log", "exited 0 but its report shows 3 failed", "c/tests/summary_test.c"},
		{"csummary/pass.log", "", ""},
	} {
		t.Run(c.log, func(t *testing.T) {
			f, err := os.Open("../parse/testdata/golden/" + c.log)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			step := &glv1.Step{Name: "test", Phase: glv1.Phase_PHASE_TEST, Command: "make check", Workdir: "c"}
			res := &glv1.StepResult{Name: "test", Status: glv1.StepStatus_STEP_STATUS_OK}
			rep, err := parse.Step(context.Background(), parse.Input{Step: step, Result: res, Log: f,
				Files: os.DirFS("../parse/testdata/golden/src/charness")})
			if err != nil {
				t.Fatal(err)
			}
			got := Steps(OnReport, StepInput{Step: step, Result: res, Report: rep})
			if c.reason == "" {
				if got.GetStatus() != glv1.StepStatus_STEP_STATUS_OK {
					t.Fatalf("status %s (%s), want OK", got.GetStatus(), got.GetReason())
				}
				return
			}
			if got.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED || got.GetRule() != RuleReportDisagrees || !strings.Contains(got.GetReason(), c.reason) {
				t.Fatalf("status %s rule %q reason %q, want FAILED %s with %q", got.GetStatus(), got.GetRule(), got.GetReason(), RuleReportDisagrees, c.reason)
			}
			if len(rep.Tests) == 0 || rep.Tests[0].File != c.first || rep.Tests[0].Line == 0 {
				t.Fatalf("failed checks %+v, want the first at a line of %s", rep.Tests, c.first)
			}
		})
	}
}
