package contract

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestReviewInTheContract: a FAIL with a reviewer's 10/10 stays FAIL with
// its level, the review is rendered beside it with its note, and a result
// without a review says null.
func TestReviewInTheContract(t *testing.T) {
	res := failingResult()
	res.Review = &glv1.Review{Profile: "local", Overall: 10, Summary: "Production-ready.", CreatedAt: ts(13),
		Usage: &glv1.Usage{PromptTokens: 900, CompletionTokens: 80},
		Criteria: []*glv1.ReviewCriterion{
			{Name: "correctness", Score: 3, Max: 3}, {Name: "completeness", Score: 2, Max: 2}, {Name: "testing", Score: 2, Max: 2},
			{Name: "code_quality", Score: 2, Max: 2}, {Name: "best_practices", Score: 1, Max: 1, Comment: "idiomatic"},
		}}
	reviewed := FromRun(verifyRun(res, glv1.RunStatus_RUN_STATUS_FAILED))
	plain := FromRun(verifyRun(failingResult(), glv1.RunStatus_RUN_STATUS_FAILED))
	tests := []struct {
		name   string
		doc    *Result
		review bool
	}{
		{"reviewed", reviewed, true},
		{"no reviewer", plain, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.doc.Status != "FAIL" || tc.doc.Level != plain.Level {
				t.Errorf("status %s level %s, want FAIL and %s", tc.doc.Status, tc.doc.Level, plain.Level)
			}
			b, err := Marshal(tc.doc)
			if err != nil {
				t.Fatal(err)
			}
			validate(t, compiled(t), b)
			has := strings.Contains(string(b), `"note": "`+ReviewNote+`"`)
			if has != tc.review || (!tc.review && !strings.Contains(string(b), `"review": null`)) {
				t.Errorf("review note present %v, want %v:\n%s", has, tc.review, b)
			}
			if tc.review {
				golden(t, "verify-fail-reviewed.json", b)
			}
		})
	}
}
