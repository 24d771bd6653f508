package score

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

const (
	ok      = glv1.StepStatus_STEP_STATUS_OK
	failed  = glv1.StepStatus_STEP_STATUS_FAILED
	skipped = glv1.StepStatus_STEP_STATUS_SKIPPED
	timeout = glv1.StepStatus_STEP_STATUS_TIMED_OUT
)

// step builds an outcome; rep may be nil.
func step(name string, phase glv1.Phase, st glv1.StepStatus, rep *parse.StepReport) StepOutcome {
	return StepOutcome{
		Step:   &glv1.Step{Name: name, Phase: phase},
		Result: &glv1.StepResult{Name: name, Phase: phase, Status: st},
		Report: rep,
	}
}

// advisoryStep marks an outcome's step optional (advisory).
func advisoryStep(o StepOutcome) StepOutcome {
	o.Step.Optional = true
	return o
}

func tests(c parse.Counts) *parse.StepReport {
	return &parse.StepReport{HasTests: true, Format: parse.FormatGoJSON, Counts: c}
}

func lint(n int) *parse.StepReport { return &parse.StepReport{HasLint: true, LintIssues: n} }

var (
	install = step("install", glv1.Phase_PHASE_INSTALL, ok, &parse.StepReport{})
	build   = step("build", glv1.Phase_PHASE_BUILD, ok, &parse.StepReport{})
	lint0   = step("lint", glv1.Phase_PHASE_LINT, ok, lint(0))
	green   = step("test", glv1.Phase_PHASE_TEST, ok, tests(parse.Counts{Passed: 10}))
)

func TestCompute(t *testing.T) {
	compileFail := tests(parse.Counts{Passed: 3, Errors: 1})
	compileFail.Failures = []parse.Failure{{Kind: glv1.FailureKind_FAILURE_KIND_COMPILE}}
	flaky := tests(parse.Counts{Passed: 5, Flaky: 1})
	flaky.PassedOnRerun = true
	installFail := &parse.StepReport{Failures: []parse.Failure{{Kind: glv1.FailureKind_FAILURE_KIND_INSTALL}}}
	timedOut := &parse.StepReport{Failures: []parse.Failure{{Kind: glv1.FailureKind_FAILURE_KIND_TIMEOUT}}}

	cases := []struct {
		name                          string
		steps                         []StepOutcome
		build, tests, lint, crit, tot float64
		level                         glv1.Level
		rule                          string
	}{
		{"all green", []StepOutcome{install, build, lint0, green}, 3, 4, 2, 1, 10, glv1.Level_LEVEL_L4, "10/10 passed"},
		{"some tests fail", []StepOutcome{install, build, lint0, step("test", glv1.Phase_PHASE_TEST, failed, tests(parse.Counts{Passed: 6, Failed: 2, Skipped: 5}))},
			3, 3, 2, 1, 9, glv1.Level_LEVEL_L3, "6/8 passed"},
		{"no tests at all", []StepOutcome{install, build, lint0}, 3, 0, 2, 1, 6, glv1.Level_LEVEL_L3, "no tests ran"},
		{"test step ran zero tests", []StepOutcome{build, lint0, step("test", glv1.Phase_PHASE_TEST, failed, tests(parse.Counts{}))},
			3, 0, 2, 1, 6, glv1.Level_LEVEL_L3, "no tests ran"},
		{"all skipped", []StepOutcome{build, lint0, step("test", glv1.Phase_PHASE_TEST, ok, tests(parse.Counts{Skipped: 3}))},
			3, 0, 2, 1, 6, glv1.Level_LEVEL_L3, "all 3 tests skipped"},
		{"lint missing", []StepOutcome{install, build, green}, 3, 4, 0, 1, 8, glv1.Level_LEVEL_L4, "no lint/typecheck step ran"},
		{"lint skipped is missing", []StepOutcome{build, step("lint", glv1.Phase_PHASE_LINT, skipped, nil), green}, 3, 4, 0, 1, 8, glv1.Level_LEVEL_L4, "no lint/typecheck step ran"},
		{"3 lint issues", []StepOutcome{build, step("lint", glv1.Phase_PHASE_LINT, failed, lint(3)), green}, 3, 4, 1, 1, 9, glv1.Level_LEVEL_L4, "3 issues"},
		{"lint plus typecheck issues", []StepOutcome{build, step("lint", glv1.Phase_PHASE_LINT, failed, lint(3)), step("tsc", glv1.Phase_PHASE_TYPECHECK, failed, lint(2)), green},
			3, 4, 0, 1, 8, glv1.Level_LEVEL_L4, "5 issues"},
		{"lint failed unparsed", []StepOutcome{build, step("lint", glv1.Phase_PHASE_LINT, failed, lint(0)), green}, 3, 4, 0, 1, 8, glv1.Level_LEVEL_L4, "without a parsable issue count"},
		{"install failed", []StepOutcome{step("install", glv1.Phase_PHASE_INSTALL, failed, installFail), step("build", glv1.Phase_PHASE_BUILD, skipped, nil),
			step("test", glv1.Phase_PHASE_TEST, skipped, nil)}, 0, 0, 0, 0, 0, glv1.Level_LEVEL_UNSPECIFIED, "install failed"},
		{"go test build failure", []StepOutcome{lint0, step("test", glv1.Phase_PHASE_TEST, failed, compileFail)}, 0, 3, 2, 0, 5, glv1.Level_LEVEL_L3, "compile failure in test"},
		{"timeout", []StepOutcome{build, lint0, step("test", glv1.Phase_PHASE_TEST, timeout, timedOut)}, 3, 0, 2, 0, 5, glv1.Level_LEVEL_L3, "test timed_out"},
		{"flaky passed on rerun", []StepOutcome{build, lint0, step("test", glv1.Phase_PHASE_TEST, failed, flaky)}, 3, 4, 2, 1, 10, glv1.Level_LEVEL_L4, "1 flaky"},
		{"unparsed test step by exit code", []StepOutcome{build, lint0, step("test", glv1.Phase_PHASE_TEST, ok, &parse.StepReport{Format: parse.FormatUnparsed})},
			3, 4, 2, 1, 10, glv1.Level_LEVEL_L3, "level L3, not L4: no passing test result was parsed from test"},
		{"test step running true", []StepOutcome{lint0, step("test", glv1.Phase_PHASE_TEST, ok, nil)},
			3, 4, 2, 1, 10, glv1.Level_LEVEL_L3, "no passing test result was parsed from test (L4 needs at least one)"},
		{"advisory install failed, required fallback ok", []StepOutcome{advisoryStep(step("pip-install", glv1.Phase_PHASE_INSTALL, failed, installFail)),
			step("pip-fallback", glv1.Phase_PHASE_INSTALL, ok, &parse.StepReport{}), build, lint0, green}, 3, 4, 2, 1, 10, glv1.Level_LEVEL_L4, "10/10 passed"},
		{"lint only never builds", []StepOutcome{lint0}, 0, 0, 2, 1, 3, glv1.Level_LEVEL_L2, "no L3+ step proved the build"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Compute(Input{Steps: tc.steps})
			if s.GetBuild() != tc.build || s.GetTests() != tc.tests || s.GetLint() != tc.lint || s.GetNoCritical() != tc.crit {
				t.Errorf("components build %g tests %g lint %g crit %g, want %g %g %g %g (%s)", s.GetBuild(), s.GetTests(), s.GetLint(), s.GetNoCritical(), tc.build, tc.tests, tc.lint, tc.crit, s.GetRule())
			}
			if s.GetTotal() != tc.tot || s.GetDecidedBy() != glv1.ScoreSource_SCORE_SOURCE_DETERMINISTIC {
				t.Errorf("total %g by %s, want %g deterministic", s.GetTotal(), s.GetDecidedBy(), tc.tot)
			}
			if s.GetLevel() != tc.level {
				t.Errorf("level %s, want %s", s.GetLevel(), tc.level)
			}
			if !strings.Contains(s.GetRule(), tc.rule) {
				t.Errorf("rule %q does not mention %q", s.GetRule(), tc.rule)
			}
		})
	}
}

func TestResolution(t *testing.T) {
	model := 9.5
	all := []StepOutcome{build, lint0, step("test", glv1.Phase_PHASE_TEST, failed, tests(parse.Counts{Passed: 1, Failed: 1}))}
	s := Compute(Input{Steps: all, Model: &model})
	if s.GetTotal() != 8 || s.GetDecidedBy() != glv1.ScoreSource_SCORE_SOURCE_DETERMINISTIC || !s.GetHasModelScore() || s.GetModelScore() != 9.5 {
		t.Errorf("default: %+v", s)
	}
	if !strings.Contains(s.GetRule(), "model score 9.5 recorded, not deciding") {
		t.Errorf("rule %q", s.GetRule())
	}
	s = Compute(Input{Steps: all, Model: &model, Policy: PolicyModelFirst})
	if s.GetTotal() != 9.5 || s.GetDecidedBy() != glv1.ScoreSource_SCORE_SOURCE_MODEL || s.GetBuild() != 3 {
		t.Errorf("model-first: %+v", s)
	}
	none := []StepOutcome{step("test", glv1.Phase_PHASE_TEST, glv1.StepStatus_STEP_STATUS_ERROR, nil)}
	s = Compute(Input{Steps: none, Model: &model})
	if s.GetTotal() != 9.5 || s.GetDecidedBy() != glv1.ScoreSource_SCORE_SOURCE_MODEL {
		t.Errorf("nothing ran, model: %+v", s)
	}
	s = Compute(Input{Steps: none})
	if s.GetTotal() != NeedsReview || s.GetDecidedBy() != glv1.ScoreSource_SCORE_SOURCE_UNSPECIFIED || s.GetNoCritical() != 0 {
		t.Errorf("nothing ran: %+v", s)
	}
	high := 42.0
	if s := Compute(Input{Steps: all, Model: &high, Policy: PolicyModelFirst}); s.GetTotal() != 10 {
		t.Errorf("model score not clamped: %g", s.GetTotal())
	}
}

func TestCapFailing(t *testing.T) {
	cases := []struct {
		name             string
		total, threshold float64
		want             float64
		capped           bool
	}{
		{"at the threshold", 8, 8, 7.9, true},
		{"above it", 10, 8, 7.9, true},
		{"odd threshold", 9, 8.05, 8, true},
		{"already below", 6, 8, 6, false},
		{"zero threshold", 3, 0, 0, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := &glv1.Score{Total: tc.total, Rule: "deterministic: x"}
			CapFailing(s, tc.threshold)
			if s.GetTotal() != tc.want {
				t.Errorf("total %g, want %g", s.GetTotal(), tc.want)
			}
			if got := strings.Contains(s.GetRule(), "a failing verdict never scores at or above the pass threshold"); got != tc.capped {
				t.Errorf("rule %q: says capped %v, want %v", s.GetRule(), got, tc.capped)
			}
		})
	}
}
