package report

import (
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
)

// TestOKStepFindingsFollowFailures: a lint step that finished OK with
// findings (flake8 --exit-zero, captured) runs before the failing tests;
// the failures that decided the verdict lead the result's list, the
// findings follow, still listed.
func TestOKStepFindingsFollowFailures(t *testing.T) {
	lint := realStep(t, "flake8", "flake8/exit-zero", "py-lint", "api", lintP, 0)
	if len(lint.Report.Failures) != 3 {
		t.Fatalf("flake8 --exit-zero reported %d findings, want 3", len(lint.Report.Failures))
	}
	test := realStep(t, "pytest", "pytest/fail-plain", "py", "api", testP, 1)
	r := Build(Input{RunID: "run-1", Steps: []score.StepOutcome{lint, test}})
	fs := r.GetFailures()
	if r.GetStatus() != glv1.Verdict_VERDICT_FAIL || len(fs) != 5 {
		t.Fatalf("status %s, %d failures, want FAIL with 2 test failures and 3 findings", r.GetStatus(), len(fs))
	}
	for i, f := range fs {
		step, want := f.GetEvidence().GetStep(), "pytest"
		if i >= 2 {
			want = "flake8"
		}
		if step != want {
			t.Errorf("failure %d (%s %s:%d) is %s's, want %s's", i, f.GetKind(), f.GetFile(), f.GetLine(), step, want)
		}
	}
}
