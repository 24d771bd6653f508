package engine_test

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

// TestVerifySelectsTestsAndSaysPartial checks VerifyOptions.tests and
// selection: the test step runs narrowed with pytest's own selector, the
// install and build steps stay, lint does not run, a test step of a runner
// that cannot select tests is dropped, and the verdict says it is partial;
// with no narrowable test step the run is an ERROR naming the steps.
func TestVerifySelectsTestsAndSaysPartial(t *testing.T) {
	lint := &glv1.Step{Name: "ruff", Phase: glv1.Phase_PHASE_LINT, Command: "ruff check .", Tier: glv1.Tier_TIER_0, Level: glv1.Level_LEVEL_L2}
	script := &glv1.Step{Name: "check-sh", Phase: glv1.Phase_PHASE_TEST, Command: "./check.sh", Tier: glv1.Tier_TIER_0, Level: glv1.Level_LEVEL_L4,
		Env: map[string]string{"FAKE_EXIT": "0"}}
	cases := []struct {
		name      string
		steps     []*glv1.Step
		opts      *glv1.VerifyOptions
		verdict   glv1.Verdict
		commands  []string
		summary   []string
		partial   *glv1.Partial
		noteAbout string
	}{
		{
			name:     "one pytest test",
			steps:    append(enginetest.CalcSteps(), lint, script),
			opts:     &glv1.VerifyOptions{Tests: []string{"tests/test_calc.py::test_sub"}},
			verdict:  glv1.Verdict_VERDICT_FAIL, // the fake runs every test: test_add still fails
			commands: []string{"python3 -m compileall -q .", "python3 -m pytest -rA 'tests/test_calc.py::test_sub'"},
			summary:  []string{"partial: selected tests tests/test_calc.py::test_sub, not the whole project"},
			partial:  &glv1.Partial{Tests: []string{"tests/test_calc.py::test_sub"}},
		},
		{
			name:     "selected steps",
			steps:    append(enginetest.CalcSteps(), lint),
			opts:     &glv1.VerifyOptions{Selection: []*glv1.CommandSelection{{Name: "compileall"}}},
			verdict:  glv1.Verdict_VERDICT_PASS,
			commands: []string{"python3 -m compileall -q ."},
			summary:  []string{"partial: selected steps compileall"},
			partial:  &glv1.Partial{Steps: []string{"compileall"}},
		},
		{
			name:    "no test step can be narrowed",
			steps:   []*glv1.Step{enginetest.CalcSteps()[0], script},
			opts:    &glv1.VerifyOptions{Tests: []string{"test_add"}},
			verdict: glv1.Verdict_VERDICT_ERROR,
			summary: []string{"cannot run only the tests test_add", "check-sh"},
			partial: &glv1.Partial{Tests: []string{"test_add"}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, engine.Config{}, tc.steps...)
			run, _ := h.verify(&glv1.VerifyRequest{Snapshot: h.snapshot(enginetest.CalcFiles), Options: tc.opts})
			res := run.GetResult()
			if res.GetStatus() != tc.verdict {
				t.Fatalf("verdict %s (%s), want %s", res.GetStatus(), res.GetSummary(), tc.verdict)
			}
			var got []string
			if reqs := h.exec.Requests(); len(reqs) > 0 {
				for _, s := range reqs[0].GetPipeline().GetSteps() {
					got = append(got, s.GetCommand())
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.commands, "\n") {
				t.Errorf("executed\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.commands, "\n"))
			}
			for _, want := range tc.summary {
				if !strings.Contains(res.GetSummary(), want) {
					t.Errorf("summary %q lacks %q", res.GetSummary(), want)
				}
			}
			if strings.Join(res.GetPartial().GetSteps(), ",") != strings.Join(tc.partial.GetSteps(), ",") ||
				strings.Join(res.GetPartial().GetTests(), ",") != strings.Join(tc.partial.GetTests(), ",") || res.GetPartial() == nil {
				t.Errorf("partial %v, want %v", res.GetPartial(), tc.partial)
			}
		})
	}
}
