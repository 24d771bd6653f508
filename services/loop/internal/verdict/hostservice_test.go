package verdict

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// TestNeedsHostServiceOnlyWhenEveryFailureIsOne checks rule
// needs-host-service on zerolog's journald test as `go test -json` printed
// it in the sandbox: a step whose only failures are tests reaching a host
// service is an ERROR; one assertion failure besides keeps it FAILED.
func TestNeedsHostServiceOnlyWhenEveryFailureIsOne(t *testing.T) {
	test := &glv1.Step{Name: "go-test", Phase: glv1.Phase_PHASE_TEST}
	failed := &glv1.StepResult{Name: "go-test", Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1, Tail: "FAIL\tgithub.com/rs/zerolog/journald\n"}
	journald := parse.Failure{Test: "github.com/rs/zerolog/journald.TestWriteReturnsNoOfWrittenBytes",
		Message: "journald_test.go:90: Unexpected error write unixgram @2aae0->/run/systemd/journal/socket: sendmsg: no such file or directory\n" +
			"journald_test.go:94: Expected 58 bytes to be written got 0"}
	syslog := parse.Failure{Test: "TestSyslog", Message: "syslog_test.go:12: dial unix /dev/log: connect: no such file or directory"}
	code := parse.Failure{Test: "TestLevel", Message: "level_test.go:40: got info, want debug"}
	report := func(omitted int, fs ...parse.Failure) *parse.StepReport {
		return &parse.StepReport{HasTests: true, Counts: parse.Counts{Passed: 816, Failed: len(fs) + omitted}, Failures: fs, FailuresOmitted: omitted}
	}
	cases := []struct {
		name   string
		step   *glv1.Step
		report *parse.StepReport
		want   glv1.StepStatus
	}{
		{"journald only", test, report(0, journald), glv1.StepStatus_STEP_STATUS_ERROR},
		{"journald and syslog", test, report(0, journald, syslog), glv1.StepStatus_STEP_STATUS_ERROR},
		{"an assertion failed too", test, report(0, journald, code), glv1.StepStatus_STEP_STATUS_FAILED},
		{"failures left out of the report", test, report(3, journald), glv1.StepStatus_STEP_STATUS_FAILED},
		{"nothing parsed", test, nil, glv1.StepStatus_STEP_STATUS_FAILED},
		{"advisory step untouched", &glv1.Step{Name: "go-test", Phase: glv1.Phase_PHASE_TEST, Optional: true}, report(0, journald),
			glv1.StepStatus_STEP_STATUS_FAILED},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Steps(OnReport, StepInput{Step: tc.step, Result: failed, Report: tc.report})
			if got.GetStatus() != tc.want {
				t.Fatalf("status %s (%s), want %s", got.GetStatus(), got.GetReason(), tc.want)
			}
			if tc.want == glv1.StepStatus_STEP_STATUS_ERROR &&
				(got.GetRule() != RuleNeedsHostService || !strings.Contains(got.GetReason(), "/run/systemd/journal/socket")) {
				t.Fatalf("rule %q reason %q", got.GetRule(), got.GetReason())
			}
		})
	}
	if failed.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED {
		t.Fatal("the input result was changed in place")
	}
}
