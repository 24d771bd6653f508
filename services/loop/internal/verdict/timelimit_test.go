package verdict

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// TestTimeLimitOnlyForInstallAndBuild checks rule time-limit: fmt's test
// build ran out of the 5-minute build limit on a 2-core machine (an
// ERROR naming the limit and the setting); a test step that times out
// stays TIMED_OUT (a failure), as does an advisory build.
func TestTimeLimitOnlyForInstallAndBuild(t *testing.T) {
	timedOut := &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_TIMED_OUT, ExitCode: -1,
		Tail: "[ 90%] Building CXX object test/CMakeFiles/compile-test.dir/compile-test.cc.o\n"}
	step := func(phase glv1.Phase, optional bool) *glv1.Step {
		return &glv1.Step{Name: "cmake-build", Phase: phase, Optional: optional, Timeout: durationpb.New(5 * time.Minute)}
	}
	cases := []struct {
		name string
		step *glv1.Step
		want glv1.StepStatus
	}{
		{"build", step(glv1.Phase_PHASE_BUILD, false), glv1.StepStatus_STEP_STATUS_ERROR},
		{"install", step(glv1.Phase_PHASE_INSTALL, false), glv1.StepStatus_STEP_STATUS_ERROR},
		{"test", step(glv1.Phase_PHASE_TEST, false), glv1.StepStatus_STEP_STATUS_TIMED_OUT},
		{"advisory build", step(glv1.Phase_PHASE_BUILD, true), glv1.StepStatus_STEP_STATUS_TIMED_OUT},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Steps(OnReport, StepInput{Step: tc.step, Result: timedOut})
			if got.GetStatus() != tc.want {
				t.Fatalf("status %s, want %s", got.GetStatus(), tc.want)
			}
			if tc.want == glv1.StepStatus_STEP_STATUS_ERROR &&
				(got.GetRule() != RuleTimeLimit || !strings.Contains(got.GetReason(), "limit of 5m0s") || !strings.Contains(got.GetReason(), "timeouts:")) {
				t.Fatalf("rule %q reason %q", got.GetRule(), got.GetReason())
			}
		})
	}
	// zstd's test target was given what was left of the 10-minute budget
	// after its build and its check target: not a hang, an unknown result.
	cut := &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_TIMED_OUT, ExitCode: -1, Duration: durationpb.New(212 * time.Second)}
	got := Steps(OnReport, StepInput{Step: &glv1.Step{Name: "make-test", Phase: glv1.Phase_PHASE_TEST, Timeout: durationpb.New(10 * time.Minute)}, Result: cut})
	if got.GetStatus() != glv1.StepStatus_STEP_STATUS_ERROR || !strings.Contains(got.GetReason(), "time budget ran out") ||
		!strings.Contains(got.GetReason(), "after 3m32s; its own limit is 10m0s") {
		t.Fatalf("cut short by the budget: %s %q", got.GetStatus(), got.GetReason())
	}
	start := time.Date(2026, 11, 28, 1, 48, 47, 0, time.UTC)
	cut = &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_TIMED_OUT, ExitCode: -1,
		StartedAt: timestamppb.New(start), FinishedAt: timestamppb.New(start.Add(252 * time.Second))}
	got = Steps(OnReport, StepInput{Step: &glv1.Step{Name: "make-test", Phase: glv1.Phase_PHASE_TEST, Timeout: durationpb.New(10 * time.Minute)}, Result: cut})
	if got.GetStatus() != glv1.StepStatus_STEP_STATUS_ERROR || !strings.Contains(got.GetReason(), "after 4m12s; its own limit is 10m0s") {
		t.Fatalf("cut short by the budget, timestamps only: %s %q", got.GetStatus(), got.GetReason())
	}
	// packaging's pytest: 9m25s of 10m, the executor naming the budget.
	said := &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_TIMED_OUT, ExitCode: -1, Duration: durationpb.New(564878 * time.Millisecond),
		Reason: "the run budget of 9m59.987511936s was exhausted; the sandbox was destroyed"}
	got = Steps(OnReport, StepInput{Step: &glv1.Step{Name: "pytest", Phase: glv1.Phase_PHASE_TEST, Timeout: durationpb.New(10 * time.Minute)}, Result: said})
	if got.GetStatus() != glv1.StepStatus_STEP_STATUS_ERROR || !strings.Contains(got.GetReason(), "time budget ran out") {
		t.Fatalf("the executor said the budget ran out: %s %q", got.GetStatus(), got.GetReason())
	}
	// idna with an injected bug: its failing tests were slow enough to
	// reach the budget; the failures already seen decide (a FAIL).
	failing := &parse.StepReport{HasTests: true, Counts: parse.Counts{Passed: 40, Failed: 7}}
	if got := Steps(OnReport, StepInput{Step: &glv1.Step{Name: "pytest", Phase: glv1.Phase_PHASE_TEST, Timeout: durationpb.New(10 * time.Minute)},
		Result: said, Report: failing}); got != said {
		t.Fatalf("tests failed before the budget ran out: %s %q", got.GetStatus(), got.GetReason())
	}
	full := &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_TIMED_OUT, ExitCode: -1, Duration: durationpb.New(10*time.Minute + time.Second)}
	if got := Steps(OnReport, StepInput{Step: &glv1.Step{Name: "make-test", Phase: glv1.Phase_PHASE_TEST, Timeout: durationpb.New(10 * time.Minute)}, Result: full}); got != full {
		t.Fatalf("a test step that used its whole limit is a failure, got %s %q", got.GetStatus(), got.GetReason())
	}
	if timedOut.GetStatus() != glv1.StepStatus_STEP_STATUS_TIMED_OUT {
		t.Fatal("the input result was changed in place")
	}
}
