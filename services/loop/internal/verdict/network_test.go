package verdict

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// Tails as the steps print them.
const (
	// npm test's posttest hook (`npx npm audit`) after every test passed.
	posttestAuditTail = "# pass  171\n# ok\n\n> qs@6.13.0 posttest\n> npx npm@'>=10' audit --production\n\n" +
		"npm error code EAI_AGAIN\nnpm error syscall getaddrinfo\nnpm error errno EAI_AGAIN\n" +
		"npm error request to https://registry.npmjs.org/npm failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org\n"
	pyDownloadTail = "E   urllib3.exceptions.NewConnectionError: <urllib3.connection.HTTPSConnection object at 0x7f>: " +
		"Failed to establish a new connection: [Errno -3] Temporary failure in name resolution\n"
)

// TestNeedsNetworkIsAnEnvironmentErrorOnlyWhenNothingElseFailed checks
// rule needs-network: a step without network that failed reaching it is an
// ERROR of the environment, unless a test failed for another reason.
func TestNeedsNetworkIsAnEnvironmentErrorOnlyWhenNothingElseFailed(t *testing.T) {
	test := &glv1.Step{Name: "npm-test", Phase: glv1.Phase_PHASE_TEST}
	failed := func(tail string) *glv1.StepResult {
		return &glv1.StepResult{Name: "npm-test", Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1, Tail: tail}
	}
	netFailure := parse.Failure{Test: "test_fetch", Message: pyDownloadTail}
	codeFailure := parse.Failure{Test: "test_sum", Message: "assert 1 == 2"}
	cases := []struct {
		name   string
		step   *glv1.Step
		result *glv1.StepResult
		report *parse.StepReport
		want   glv1.StepStatus
	}{
		{"hook after passing tests", test, failed(posttestAuditTail),
			&parse.StepReport{HasTests: true, Counts: parse.Counts{Passed: 171}}, glv1.StepStatus_STEP_STATUS_ERROR},
		{"nothing parsed", test, failed(posttestAuditTail), nil, glv1.StepStatus_STEP_STATUS_ERROR},
		{"every failed test failed on the network", test, failed(pyDownloadTail),
			&parse.StepReport{HasTests: true, Counts: parse.Counts{Passed: 3, Failed: 1}, Failures: []parse.Failure{netFailure}},
			glv1.StepStatus_STEP_STATUS_ERROR},
		{"a test failed on an assertion too", test, failed(pyDownloadTail),
			&parse.StepReport{HasTests: true, Counts: parse.Counts{Failed: 2}, Failures: []parse.Failure{netFailure, codeFailure}},
			glv1.StepStatus_STEP_STATUS_FAILED},
		{"failed tests whose records were capped", test, failed(pyDownloadTail),
			&parse.StepReport{HasTests: true, Counts: parse.Counts{Failed: 60}, Failures: []parse.Failure{netFailure}, FailuresOmitted: 59},
			glv1.StepStatus_STEP_STATUS_FAILED},
		{"no network message", test, failed("npm error code ELIFECYCLE\n"), nil, glv1.StepStatus_STEP_STATUS_FAILED},
		{"an install is install-env's business", &glv1.Step{Name: "npm-ci", Phase: glv1.Phase_PHASE_INSTALL, Network: true},
			failed(posttestAuditTail), nil, glv1.StepStatus_STEP_STATUS_FAILED},
		{"advisory step untouched", &glv1.Step{Name: "npm-test", Phase: glv1.Phase_PHASE_TEST, Optional: true},
			failed(posttestAuditTail), nil, glv1.StepStatus_STEP_STATUS_FAILED},
		{"a passing step untouched", test, &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_OK, Tail: posttestAuditTail}, nil,
			glv1.StepStatus_STEP_STATUS_OK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Steps(OnReport, StepInput{Step: tc.step, Result: tc.result, Report: tc.report})
			if got.GetStatus() != tc.want {
				t.Fatalf("status %s (%s), want %s", got.GetStatus(), got.GetReason(), tc.want)
			}
			if tc.want == glv1.StepStatus_STEP_STATUS_ERROR {
				if got.GetRule() != RuleNeedsNetwork || !strings.HasPrefix(got.GetReason(), "environment: the step tried to reach the network") ||
					!strings.Contains(got.GetReason(), "EAI_AGAIN") && !strings.Contains(got.GetReason(), "name resolution") {
					t.Fatalf("rule %q reason %q", got.GetRule(), got.GetReason())
				}
				if tc.result.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED {
					t.Fatal("the input result was changed in place")
				}
			}
		})
	}
}
