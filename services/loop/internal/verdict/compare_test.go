package verdict

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
)

// outcome builds a step outcome: status, and optionally a test report.
func outcome(name string, st glv1.StepStatus, rep *parse.StepReport) score.StepOutcome {
	exit := int32(0)
	if st != glv1.StepStatus_STEP_STATUS_OK {
		exit = 1
	}
	return score.StepOutcome{Step: &glv1.Step{Name: name}, Result: &glv1.StepResult{Name: name, Status: st, ExitCode: exit}, Report: rep}
}

// testReport builds a test report from "id=status" entries; counts follow
// the entries unless passed is given (an incomplete inventory).
func testReport(passed int, tests ...string) *parse.StepReport {
	r := &parse.StepReport{HasTests: true}
	for _, t := range tests {
		id, st, _ := strings.Cut(t, "=")
		tc := parse.Test{ID: id, Status: map[string]parse.Status{"passed": parse.StatusPassed, "failed": parse.StatusFailed,
			"skipped": parse.StatusSkipped, "flaky": parse.StatusFailed}[st], Flaky: st == "flaky"}
		r.Tests = append(r.Tests, tc)
		r.Inventory = append(r.Inventory, parse.Outcome{ID: id, Status: tc.Status, Flaky: tc.Flaky})
		switch {
		case tc.Flaky || tc.Status == parse.StatusPassed:
			r.Counts.Passed++
		case tc.Status == parse.StatusSkipped:
			r.Counts.Skipped++
		default:
			r.Counts.Failed++
		}
	}
	r.InventoryComplete = true
	if passed >= 0 {
		r.InventoryComplete = passed <= r.Counts.Passed
		r.Counts.Passed = passed
	}
	return r
}

// TestRegressionsListWhatAPatchMadeWorse is the rollback rule, case by
// case.
func TestRegressionsListWhatAPatchMadeWorse(t *testing.T) {
	const ok, failed, skipped = glv1.StepStatus_STEP_STATUS_OK, glv1.StepStatus_STEP_STATUS_FAILED, glv1.StepStatus_STEP_STATUS_SKIPPED
	p, f := parse.StatusPassed.String(), parse.StatusFailed.String()
	base := func(o ...score.StepOutcome) Verification { return Verification{Steps: o} }
	cases := []struct {
		name          string
		before, after Verification
		want          []string // substrings of the reason, in order; none: no regression
	}{
		{"same", base(outcome("build", ok, nil), outcome("test", failed, testReport(-1, "a="+p, "b="+f))),
			base(outcome("build", ok, nil), outcome("test", failed, testReport(-1, "a="+p, "b="+f))), nil},
		{"fixed", base(outcome("test", failed, testReport(-1, "a="+p, "b="+f))), base(outcome("test", ok, testReport(-1, "a="+p, "b="+p))), nil},
		{"a prefix-named new test does not hide a vanished failing one", base(outcome("test", failed, testReport(-1, "pkg.TestA="+p, "pkg.TestX="+f))),
			base(outcome("test", ok, testReport(-1, "pkg.TestA="+p, "pkg.TestXFoo="+p))), []string{"no longer run", "pkg.TestX"}},
		{"a module failure collected test by test did not vanish", base(outcome("test", failed, testReport(-1, "a="+p, "tests/test_m.py="+f))),
			base(outcome("test", ok, testReport(-1, "a="+p, "tests/test_m.py::test_1="+p))), nil},
		{"build breaks, tests stop running (same count)",
			base(outcome("build", ok, nil), outcome("test", failed, testReport(-1, "a="+p, "b="+f))),
			base(outcome("build", failed, nil), outcome("test", skipped, nil)),
			[]string{`step "build": passed before and now fails`, `step "test": fewer tests pass: 1 before, 0 after`}},
		{"passing test now fails (same count)", base(outcome("test", failed, testReport(-1, "a="+p, "b="+f))),
			base(outcome("test", failed, testReport(-1, "a="+f, "b="+p))), []string{`step "test": 1 test(s) that passed before now fail: a`}},
		{"passing tests disappear from a complete inventory", base(outcome("test", failed, testReport(-1, "a="+p, "c="+p, "b="+f))),
			base(outcome("test", failed, testReport(-1, "b="+f))), []string{"2 test(s) that passed before disappeared: a, c"}},
		{"collection error: no tests at all", base(outcome("test", failed, testReport(-1, "a="+p, "b="+f))),
			base(outcome("test", failed, &parse.StepReport{HasTests: true, Counts: parse.Counts{Errors: 1}})),
			[]string{"fewer tests pass: 1 before, 0 after"}},
		{"unparsed output after", base(outcome("test", failed, testReport(-1, "a="+p, "b="+f))),
			base(outcome("test", failed, nil)), []string{"fewer tests pass"}},
		{"incomplete inventory: count drop", base(outcome("test", failed, testReport(730, "b="+f))),
			base(outcome("test", failed, testReport(729, "b="+f))), []string{"fewer tests pass: 730 before, 729 after"}},
		{"passing test now skipped", base(outcome("test", failed, testReport(-1, "a="+p, "b="+f))),
			base(outcome("test", failed, testReport(-1, "a="+parse.StatusSkipped.String(), "b="+f))), []string{"now skipped: a"}},
		{"flaky is not a regression", base(outcome("test", failed, testReport(-1, "a="+p, "b="+f))),
			base(outcome("test", failed, testReport(-1, "a=flaky", "b="+f))), nil},
		{"failing test deselected", base(outcome("test", failed, testReport(-1, "a="+p, "b="+f))),
			base(outcome("test", ok, testReport(-1, "a="+p))), []string{"1 failing test(s) no longer run (deselected or not collected) instead of being fixed: b"}},
		{"failing test now skipped", base(outcome("test", failed, testReport(-1, "a="+p, "b="+f))),
			base(outcome("test", ok, testReport(-1, "a="+p, "b="+parse.StatusSkipped.String()))), []string{"1 failing test(s) are now skipped instead of fixed: b"}},
		{"failing module collected after the fix", base(outcome("test", failed, testReport(-1, "a="+p, "tests/test_m.py="+f))),
			base(outcome("test", ok, testReport(-1, "a="+p, "tests/test_m.py::test_x="+p))), nil},
		{"more checks fail", base(outcome("test", failed, testReport(-1, "b="+f))),
			base(outcome("test", failed, testReport(-1, "b="+f, "c="+f))), []string{"more checks fail: 1 before, 2 after"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := DescribeRegressions(Regressions(c.before, c.after, true))
			if len(c.want) == 0 {
				if got != "" {
					t.Fatalf("regression %q, want none", got)
				}
				return
			}
			rest := got
			for _, w := range c.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("reason %q lacks %q (in order)", got, w)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

// TestAnOptionalStepIsNoRegression: an optional step never decides a
// rollback.
func TestAnOptionalStepIsNoRegression(t *testing.T) {
	opt := outcome("lint", glv1.StepStatus_STEP_STATUS_OK, nil)
	opt.Step.Optional = true
	after := outcome("lint", glv1.StepStatus_STEP_STATUS_FAILED, nil)
	after.Step.Optional = true
	if got := Regressions(Verification{Steps: []score.StepOutcome{opt}}, Verification{Steps: []score.StepOutcome{after}}, true); len(got) > 0 {
		t.Errorf("optional step regression %v", got)
	}
}
