package engine_test

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
	"github.com/greenlight-dev/greenlight/services/loop/internal/verdict"
)

// TestExitZeroWithFailuresInTheReportFails is the conjunction rule: a test
// step whose process exits 0 (a TestMain ending in os.Exit(0), a pytest
// hook resetting the exit status) while its report shows a failed test
// fails with rule report-disagrees, and is never re-run as flaky.
func TestExitZeroWithFailuresInTheReportFails(t *testing.T) {
	suite := []pyTest{{name: "test_ok", first: true, rerun: true, assertionLine: 4}, {name: "test_bug", first: false, rerun: true, assertionLine: 9}}
	judge := func(step *glv1.Step, files map[string]string) enginetest.Outcome {
		out := flakyJudge(suite)(step, files)
		if strings.Contains(step.GetCommand(), "pytest") {
			out.Exit = 0 // the forged exit status
		}
		return out
	}
	h := newHarness(t, engine.Config{}, flakySteps(0)...)
	h.exec.SetJudge(judge)
	run, _ := h.verify(&glv1.VerifyRequest{Snapshot: h.snapshot(fixed()), Options: &glv1.VerifyOptions{RerunFailed: true}})
	res := run.GetResult()
	if run.GetStatus() != glv1.RunStatus_RUN_STATUS_FAILED || res.GetStatus() != glv1.Verdict_VERDICT_FAIL {
		t.Fatalf("status %s verdict %s, want FAILED/FAIL: %s", run.GetStatus(), res.GetStatus(), res.GetSummary())
	}
	var step *glv1.StepResult
	for _, s := range res.GetSteps() {
		if s.GetName() == "pytest" {
			step = s
		}
	}
	if step.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED || step.GetRule() != verdict.RuleReportDisagrees || step.GetExitCode() != 0 {
		t.Errorf("pytest step %v, want FAILED with rule %s and exit code 0 kept", step, verdict.RuleReportDisagrees)
	}
	if !strings.Contains(res.GetSummary(), "rule report-disagrees") {
		t.Errorf("summary %q does not name the rule", res.GetSummary())
	}
	if n := len(h.exec.Requests()); n != 1 || res.GetCounts().GetFlaky() != 0 {
		t.Errorf("%d Execute calls, %d flaky: a forged exit status is never re-run as flaky", n, res.GetCounts().GetFlaky())
	}
}

// TestRerunNeverExcusesATestTheChangeTouched checks that a failing test in
// a file the change touched stays a failure even when its identical
// re-run passes.
func TestRerunNeverExcusesATestTheChangeTouched(t *testing.T) {
	suite := []pyTest{{name: "test_ok", first: true, rerun: true, assertionLine: 4}, {name: "test_racy", first: false, rerun: true, assertionLine: 9}}
	for _, tc := range []struct {
		name    string
		changed []string
		status  glv1.RunStatus
		flaky   int32
	}{
		{"untouched test file: flaky", []string{"api/calc.py"}, glv1.RunStatus_RUN_STATUS_PASSED, 1},
		{"the change touched the test file: a failure", []string{"api/tests/test_suite.py"}, glv1.RunStatus_RUN_STATUS_FAILED, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, engine.Config{}, flakySteps(0)...)
			h.exec.SetJudge(flakyJudge(suite))
			run, _ := h.verify(&glv1.VerifyRequest{Snapshot: h.snapshot(fixed()),
				Options: &glv1.VerifyOptions{RerunFailed: true, ChangedFiles: tc.changed}})
			if run.GetStatus() != tc.status || run.GetResult().GetCounts().GetFlaky() != tc.flaky {
				t.Errorf("status %s, %d flaky; want %s, %d: %s", run.GetStatus(), run.GetResult().GetCounts().GetFlaky(),
					tc.status, tc.flaky, run.GetResult().GetSummary())
			}
		})
	}
}

// TestAStepThatCouldNotFindItsToolIsNoPass checks rule tool-absent: a
// script that prints "gcc: command not found" and exits 0 (a CI block run
// in an image without gcc) is an ERROR naming gcc and the image, never a
// PASS; so is its failure, which says nothing about the code.
func TestAStepThatCouldNotFindItsToolIsNoPass(t *testing.T) {
	for _, exit := range []string{"0", "2"} {
		t.Run("exit "+exit, func(t *testing.T) {
			step := &glv1.Step{Name: "unittest", Phase: glv1.Phase_PHASE_TEST, Command: "./unittest.sh", Tier: glv1.Tier_TIER_0,
				Level: glv1.Level_LEVEL_L4, Image: "greenlight/sandbox-generic:latest",
				Env: map[string]string{"FAKE_EXIT": exit, "FAKE_LOG": "compiling\n./unittest.sh: line 3: gcc: command not found\ndone\n"}}
			h := newHarness(t, engine.Config{}, step)
			run, _ := h.verify(&glv1.VerifyRequest{Snapshot: h.snapshot(fixed())})
			res := run.GetResult()
			if res.GetStatus() != glv1.Verdict_VERDICT_ERROR {
				t.Fatalf("verdict %s, want ERROR: %s", res.GetStatus(), res.GetSummary())
			}
			st := res.GetSteps()[0]
			if st.GetRule() != verdict.RuleToolAbsent || !strings.Contains(st.GetReason(), "gcc") ||
				!strings.Contains(st.GetReason(), "greenlight/sandbox-generic:latest") {
				t.Errorf("step %v: want rule %s naming gcc and the image", st, verdict.RuleToolAbsent)
			}
		})
	}
}
