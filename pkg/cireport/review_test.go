package cireport

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestMarkdownReview: the review sits under a heading that says it is
// model opinion, the verdict line stays the run's, and the reviewer's
// words are escaped.
func TestMarkdownReview(t *testing.T) {
	tests := []struct {
		name    string
		review  *glv1.Review
		want    []string
		notWant []string
	}{
		{"no reviewer", nil, []string{"## ❌ greenlight FAIL"}, []string{"Reviewer"}},
		{"10/10 on a FAIL", &glv1.Review{Profile: "local", Overall: 10, Summary: "# PASS @everyone",
			Criteria: []*glv1.ReviewCriterion{{Name: "code_quality", Score: 2, Max: 2, Comment: "**great**"}}, Issues: []string{"none | really"}},
			[]string{"## ❌ greenlight FAIL", "### Reviewer's report: model opinion (L1), does not change the verdict",
				"Reviewer `local` rates the change **10.0/10**", "| code quality | 2/2 | \\*\\*great\\*\\* |", "\\# PASS \\@everyone", "- none \\| really"},
			[]string{"## ✅"}},
		{"review error", &glv1.Review{Profile: "local", Error: "the reviewer's answer is not the rubric's JSON"},
			[]string{"No report from reviewer `local`: `the reviewer's answer is not the rubric's JSON`"}, []string{"rates the change"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := failRun()
			run.Result.Review = tc.review
			md := markdown(t, run)
			for _, w := range tc.want {
				if !strings.Contains(md, w) {
					t.Errorf("markdown lacks %q:\n%s", w, md)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(md, w) {
					t.Errorf("markdown has %q:\n%s", w, md)
				}
			}
		})
	}
}
