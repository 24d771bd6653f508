package e2e_test

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// lintedCalc is the fixed calc project configuring ruff (not in the
// sandbox image) and strict mypy (in it, and failing on calc.py, which has
// no annotations): discovery plans both, and the maintainers' tests pass.
func lintedCalc(greenlightYAML string) map[string]string {
	files := fixedCalc()
	files["pyproject.toml"] += "\n[tool.ruff]\nline-length = 100\n\n[tool.mypy]\nstrict = true\n"
	if greenlightYAML != "" {
		files["greenlight.yaml"] = greenlightYAML
	}
	return files
}

func resultStep(t *testing.T, res *glv1.Result, name string) *glv1.StepResult {
	t.Helper()
	for _, s := range res.GetSteps() {
		if s.GetName() == name {
			return s
		}
	}
	t.Fatalf("no step %q in the result: %v", name, res.GetSteps())
	return nil
}

func TestAdvisoryLintNeverFailsPassingTests(t *testing.T) {
	s := newStack(t)
	tests := []struct {
		name, yaml string
		verdict    glv1.Verdict
		summary    []string
		steps      map[string]glv1.StepStatus
		reasons    map[string]string
	}{
		{"discovered lint is advisory", "", glv1.Verdict_VERDICT_PASS, []string{"PASS"},
			map[string]glv1.StepStatus{"mypy": glv1.StepStatus_STEP_STATUS_FAILED, "ruff": glv1.StepStatus_STEP_STATUS_SKIPPED, "pytest": glv1.StepStatus_STEP_STATUS_OK},
			map[string]string{"ruff": "tool not available in " + pythonImage + ": ruff"}},
		{"greenlight.yaml promotes mypy", "mode: merge\nrequired: [mypy]\n", glv1.Verdict_VERDICT_FAIL, []string{"FAIL: mypy (failed, exit 1)"},
			map[string]glv1.StepStatus{"mypy": glv1.StepStatus_STEP_STATUS_FAILED, "pytest": glv1.StepStatus_STEP_STATUS_OK}, nil},
		{"greenlight.yaml promotes ruff, missing from the image", "mode: merge\nrequired: [ruff]\n", glv1.Verdict_VERDICT_ERROR,
			[]string{"ruff (tool not available in " + pythonImage + ": ruff", "make images"},
			map[string]glv1.StepStatus{"ruff": glv1.StepStatus_STEP_STATUS_ERROR}, nil},
		{"a configured advisory step whose program is missing", "mode: merge\nsteps:\n  - name: style\n    command: flake9 --max-line-length 100 .\n    phase: lint\n    optional: true\n",
			glv1.Verdict_VERDICT_PASS, []string{"PASS"},
			map[string]glv1.StepStatus{"style": glv1.StepStatus_STEP_STATUS_SKIPPED, "pytest": glv1.StepStatus_STEP_STATUS_OK},
			map[string]string{"style": "tool not available in " + pythonImage + ": flake9"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fin := finished(s.verify(&glv1.VerifyRequest{Snapshot: s.snapshot(lintedCalc(tt.yaml))}))
			res := fin.GetResult()
			for _, st := range res.GetSteps() {
				t.Logf("step %s %s exit %d %s", st.GetName(), st.GetStatus(), st.GetExitCode(), st.GetReason())
			}
			if res.GetStatus() != tt.verdict {
				t.Fatalf("verdict %s, want %s: %s\n%s", res.GetStatus(), tt.verdict, res.GetSummary(), res.GetTailLog())
			}
			for _, w := range tt.summary {
				if !strings.Contains(res.GetSummary(), w) {
					t.Errorf("summary %q lacks %q", res.GetSummary(), w)
				}
			}
			for name, want := range tt.steps {
				if got := resultStep(t, res, name); got.GetStatus() != want {
					t.Errorf("%s: %s, want %s", name, got.GetStatus(), want)
				}
			}
			for name, want := range tt.reasons {
				if got := resultStep(t, res, name).GetReason(); !strings.Contains(got, want) {
					t.Errorf("%s: reason %q lacks %q", name, got, want)
				}
			}
			if tt.verdict == glv1.Verdict_VERDICT_PASS && res.GetCounts().GetPassed() != 2 {
				t.Errorf("counts %v", res.GetCounts())
			}
			if tt.verdict == glv1.Verdict_VERDICT_FAIL && res.GetScore().GetTotal() >= 8 {
				t.Errorf("a FAIL scored %v", res.GetScore())
			}
		})
	}
}
