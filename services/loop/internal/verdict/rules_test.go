package verdict

import (
	"slices"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// TestStepRulesAreNamedDocumentedAndOrdered pins the order the step rules
// run in: a reader of rules.go sees it, and a reordering is a decision.
func TestStepRulesAreNamedDocumentedAndOrdered(t *testing.T) {
	var names []string
	for _, r := range stepRules {
		if r.Doc == "" || r.Apply == nil || (r.Stage != OnExit && r.Stage != OnReport) {
			t.Errorf("rule %q: doc %q, apply set %t, stage %d", r.Name, r.Doc, r.Apply != nil, r.Stage)
		}
		names = append(names, r.Name)
	}
	want := []string{RuleToolUnavailable, RuleInstallEnv, RuleOldToolchain, RuleMissingDeps, RuleUnpinnedCheck, RuleTimeLimit, RuleToolAbsent, RuleDiskFull, RuleNeedsNetwork, RuleNeedsHostService, RuleNoTestsRan, RuleNoSelectedTest, RuleReportDisagrees}
	if !slices.Equal(names, want) {
		t.Errorf("step rules %q, want %q", names, want)
	}
	var run []string
	for _, r := range runRules {
		if r.Doc == "" || r.Decide == nil {
			t.Errorf("run rule %q: doc %q, decide set %t", r.Name, r.Doc, r.Decide != nil)
		}
		run = append(run, r.Name)
	}
	wantRun := []string{"required-step-failed", "infrastructure", "required-step-not-run", "counts-incomplete", "nothing-ran", "no-l3", "pass"}
	if !slices.Equal(run, wantRun) {
		t.Errorf("run rules %q, want %q", run, wantRun)
	}
}

// TestStepsRunTheRulesOfOneStageInOrder checks Steps: only the rules of
// the stage given run, each on what the one before left, so the first
// that applies decides (a later one sees a status it does not touch).
func TestStepsRunTheRulesOfOneStageInOrder(t *testing.T) {
	const img = "greenlight/sandbox-python:latest"
	failed := func(exit int32, tail string) *glv1.StepResult {
		return &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: exit, Tail: tail, Image: img}
	}
	ok := &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_OK, Image: img}
	lint := &glv1.Step{Name: "ruff", Phase: glv1.Phase_PHASE_LINT, Command: "ruff check .", RequiredBy: &glv1.CommandSource{Origin: "ci", File: "ci.yml", Line: 3}}
	test := &glv1.Step{Name: "pytest", Phase: glv1.Phase_PHASE_TEST, Command: "python3 -m pytest"}
	cases := []struct {
		name   string
		stage  Stage
		in     StepInput
		status glv1.StepStatus
		rule   string // StepResult.rule
		reason string // in StepResult.reason; "" with an unchanged result
	}{
		{"a missing program is tool-unavailable, not unpinned-check", OnExit,
			StepInput{Step: lint, Result: failed(127, "/bin/sh: 1: ruff: not found\n"), IndexUnreachable: true},
			glv1.StepStatus_STEP_STATUS_ERROR, "", "tool not available in " + img + ": ruff"},
		{"a CI check that ran the image's version is unpinned-check", OnExit,
			StepInput{Step: lint, Result: failed(1, "a.py:1:1: F401 unused\n"), IndexUnreachable: true},
			glv1.StepStatus_STEP_STATUS_ERROR, "", "the maintainers' CI requires ruff (ci.yml:3)"},
		{"a third-party import with the index down is missing-deps", OnExit,
			StepInput{Step: test, Result: failed(2, "E   ModuleNotFoundError: No module named 'hypothesis'\n"), IndexUnreachable: true},
			glv1.StepStatus_STEP_STATUS_ERROR, "", "could not import hypothesis"},
		{"OnExit leaves the report's rules alone", OnExit,
			StepInput{Step: test, Result: ok, Report: &parse.StepReport{HasTests: true, Counts: parse.Counts{Failed: 1}}},
			glv1.StepStatus_STEP_STATUS_OK, "", ""},
		{"OnReport: an absent tool decides before the counts", OnReport,
			StepInput{Step: test, Result: ok, Report: &parse.StepReport{HasTests: true, Counts: parse.Counts{Failed: 1}, MissingTools: []string{"gcc"}}},
			glv1.StepStatus_STEP_STATUS_ERROR, RuleToolAbsent, "gcc not found in the image " + img},
		{"OnReport: exit 0 with a failed test", OnReport,
			StepInput{Step: test, Result: ok, Report: &parse.StepReport{HasTests: true, Counts: parse.Counts{Failed: 1}}},
			glv1.StepStatus_STEP_STATUS_FAILED, RuleReportDisagrees, "its report shows 1 failed"},
		{"OnReport leaves the exit's rules alone", OnReport,
			StepInput{Step: lint, Result: failed(127, "/bin/sh: 1: ruff: not found\n"), IndexUnreachable: true},
			glv1.StepStatus_STEP_STATUS_FAILED, "", ""},
		{"a step that never ran", OnExit, StepInput{Step: test}, glv1.StepStatus_STEP_STATUS_UNSPECIFIED, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Steps(c.stage, c.in)
			if got.GetStatus() != c.status || got.GetRule() != c.rule || !strings.Contains(got.GetReason(), c.reason) {
				t.Fatalf("status %s rule %q reason %q; want %s %q containing %q", got.GetStatus(), got.GetRule(), got.GetReason(), c.status, c.rule, c.reason)
			}
			if c.reason == "" && got != c.in.Result {
				t.Errorf("no rule applied, yet the result was replaced: %v", got)
			}
			if c.reason != "" && c.in.Result.GetStatus() == got.GetStatus() {
				t.Errorf("the input result was changed in place: %v", c.in.Result)
			}
		})
	}
}
