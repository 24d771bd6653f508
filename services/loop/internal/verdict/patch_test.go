package verdict

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
)

// TestPatchRulesDecideInOrder checks Patch: a regression against the
// current verification first, then against the baseline, then no
// progress unless the current one passed; Shown rewrites what the model
// reads.
func TestPatchRulesDecideInOrder(t *testing.T) {
	const ok, failed = glv1.StepStatus_STEP_STATUS_OK, glv1.StepStatus_STEP_STATUS_FAILED
	p, f := parse.StatusPassed.String(), parse.StatusFailed.String()
	v := func(tests ...string) Verification {
		st := ok
		for _, t := range tests {
			if strings.HasSuffix(t, "="+f) {
				st = failed
			}
		}
		return Verification{Steps: []score.StepOutcome{outcome("test", st, testReport(-1, tests...))}}
	}
	// a passed at baseline and was broken by a kept patch that fixed b.
	baseline := v("a="+p, "b="+f, "c="+f)
	cur := v("a="+f, "b="+p, "c="+f)
	hide := func(rs []Regression) []Regression {
		for i := range rs {
			rs[i].Tests, rs[i].What = nil, rs[i].What+" (hidden)"
		}
		return rs
	}
	cases := []struct {
		name string
		in   PatchInput
		rule string
		why  []string // in the reason, in order
	}{
		{"a passing test fails", PatchInput{Current: cur, Baseline: &baseline, Patched: v("a="+f, "b="+f, "c="+p), Summary: "FAIL: test"},
			RuleRegression, []string{"the patch is a regression: ", "passed before now fail: b", "(FAIL: test)"}},
		{"shown rewrites it", PatchInput{Current: cur, Patched: v("a="+f, "b="+f, "c="+p), Shown: hide},
			RuleRegression, []string{"1 test(s) that passed before now fail (hidden)"}},
		{"what passed at baseline still fails", PatchInput{Current: cur, Baseline: &baseline, Patched: v("a="+f, "b="+p, "c="+p)},
			RuleRegression, []string{"the patch breaks what passed in the baseline: ", "now fail: a"}},
		{"the same without a baseline", PatchInput{Current: cur, Patched: v("a="+f, "b="+p, "c="+p)}, "", nil},
		{"no progress", PatchInput{Current: cur, Patched: v("a="+f, "b="+p, "c="+f), Summary: "FAIL: test"},
			RuleNoProgress, []string{"the patch fixes nothing the checks see", "(FAIL: test)"}},
		{"nothing left to progress on", PatchInput{Current: v("a=" + p), CurrentPassed: true, Patched: v("a=" + p)}, "", nil},
		{"progress", PatchInput{Current: cur, Patched: v("a="+p, "b="+p, "c="+p)}, "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rule, why := Patch(c.in)
			if rule != c.rule {
				t.Fatalf("rule %q (%s), want %q", rule, why, c.rule)
			}
			rest := why
			for _, w := range c.why {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("reason %q lacks %q (in order)", why, w)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

// TestProbeStillFailsOnlyWhenNoFailingTestPasses checks rule
// still-failing on one probe step: it still fails when it FAILED with at
// least as many failing tests as before; fewer, a pass, a step that did
// not run or an unparsed log cannot tell.
func TestProbeStillFailsOnlyWhenNoFailingTestPasses(t *testing.T) {
	failed := &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1}
	rep := func(failed, errors int) *parse.StepReport {
		return &parse.StepReport{HasTests: true, Counts: parse.Counts{Failed: failed, Errors: errors}}
	}
	cases := []struct {
		name  string
		res   *glv1.StepResult
		rep   *parse.StepReport
		now   int
		still bool
	}{
		{"as many fail", failed, rep(2, 0), 2, true},
		{"failures became errors", failed, rep(0, 2), 2, true},
		{"more fail", failed, rep(3, 0), 3, true},
		{"one passes now", failed, rep(1, 0), 1, false},
		{"the probe passed", &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_OK}, rep(0, 0), 0, false},
		{"the probe did not run", nil, nil, 0, false},
		{"its log could not be parsed", failed, nil, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			now, still := ProbeStillFails(c.res, c.rep, 2)
			if still != c.still || (still && now != c.now) {
				t.Errorf("ProbeStillFails = %d, %t; want %d, %t", now, still, c.now, c.still)
			}
		})
	}
}
