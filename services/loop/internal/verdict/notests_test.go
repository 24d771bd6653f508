package verdict

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// TestNoTestsRanIsNoPass checks rule no-tests-ran on the tails of corpus
// 2's yyjson (ctest without YYJSON_BUILD_TESTS) and typing_extensions
// (unittest discovery from the root, its tests in src/): both PASSed with
// an injected bug. A step that counted tests, an advisory one, or Go's
// per-package "no tests to run" stay as they are.
func TestNoTestsRanIsNoPass(t *testing.T) {
	test := &glv1.Step{Name: "ctest", Phase: glv1.Phase_PHASE_TEST}
	ok := func(tail string) *glv1.StepResult {
		return &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_OK, Tail: tail}
	}
	yyjson := "Internal ctest changing into directory: /workspace/.greenlight-build\nTest project /workspace/.greenlight-build\nNo tests were found!!!\n"
	typingExt := "\n----------------------------------------------------------------------\nRan 0 tests in 0.000s\n\nOK\n"
	cases := []struct {
		name   string
		step   *glv1.Step
		result *glv1.StepResult
		report *parse.StepReport
		want   glv1.StepStatus
	}{
		{"ctest found none", test, ok(yyjson), nil, glv1.StepStatus_STEP_STATUS_ERROR},
		{"unittest ran none", test, ok(typingExt), &parse.StepReport{HasTests: true}, glv1.StepStatus_STEP_STATUS_ERROR},
		{"mocha", test, ok("\n\n  0 passing (2ms)\n\n"), nil, glv1.StepStatus_STEP_STATUS_ERROR},
		{"a TAP plan of none", test, ok("TAP version 13\n1..0\n# tests 0\n# pass  0\n"), nil, glv1.StepStatus_STEP_STATUS_ERROR},
		{"another run counted tests", test, ok(typingExt), &parse.StepReport{HasTests: true, Counts: parse.Counts{Passed: 12}},
			glv1.StepStatus_STEP_STATUS_OK},
		{"go's benchmark-only package", test, ok("testing: warning: no tests to run\nPASS\nok  \tx/bench\t0.01s\n"), nil,
			glv1.StepStatus_STEP_STATUS_OK},
		{"advisory", &glv1.Step{Name: "ctest", Phase: glv1.Phase_PHASE_TEST, Optional: true}, ok(yyjson), nil, glv1.StepStatus_STEP_STATUS_OK},
		{"a build step", &glv1.Step{Name: "b", Phase: glv1.Phase_PHASE_BUILD}, ok(yyjson), nil, glv1.StepStatus_STEP_STATUS_OK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Steps(OnReport, StepInput{Step: tc.step, Result: tc.result, Report: tc.report})
			if got.GetStatus() != tc.want {
				t.Fatalf("status %s (%s), want %s", got.GetStatus(), got.GetReason(), tc.want)
			}
			if tc.want == glv1.StepStatus_STEP_STATUS_ERROR && (got.GetRule() != RuleNoTestsRan || !strings.Contains(got.GetReason(), "ran no tests")) {
				t.Fatalf("rule %q reason %q", got.GetRule(), got.GetReason())
			}
		})
	}
}
