package parse

import (
	"context"
	"io"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestReportAndLogMustAgreeOnFailures checks that a report file claiming
// fewer failures than the runner printed (a plugin rewriting the JUnit
// file, a forged report) is a disagreement, and that agreeing accounts
// are not.
func TestReportAndLogMustAgreeOnFailures(t *testing.T) {
	const log = "tests/test_a.py .F\n" +
		"=========================== short test summary info ============================\n" +
		"FAILED tests/test_a.py::test_b - assert 1 == 2\n" +
		"========================= 1 failed, 1 passed in 0.01s ==========================\n"
	junit := func(failures int) string {
		x := `<?xml version="1.0"?><testsuites><testsuite name="pytest" tests="2" failures="` + map[int]string{0: "0", 1: "1"}[failures] + `">` +
			`<testcase classname="tests.test_a" name="test_a" file="tests/test_a.py"/>` +
			`<testcase classname="tests.test_a" name="test_b" file="tests/test_a.py">`
		if failures > 0 {
			x += `<failure message="assert 1 == 2">assert 1 == 2</failure>`
		}
		return x + `</testcase></testsuite></testsuites>`
	}
	for _, tc := range []struct {
		name     string
		report   string
		disagree bool
	}{
		{"forged report: no failures", junit(0), true},
		{"honest report", junit(1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{
				Step:      &glv1.Step{Name: "pytest", Phase: glv1.Phase_PHASE_TEST, Command: "python3 -m pytest"},
				Result:    &glv1.StepResult{Name: "pytest", Status: glv1.StepStatus_STEP_STATUS_OK},
				Log:       strings.NewReader(log),
				Artifacts: map[string]io.Reader{"pytest.xml": strings.NewReader(tc.report)},
			}
			rep, err := Step(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if (rep.Disagreement != "") != tc.disagree {
				t.Errorf("disagreement %q (format %s, counts %+v), want one: %t", rep.Disagreement, rep.Format, rep.Counts, tc.disagree)
			}
		})
	}
}
