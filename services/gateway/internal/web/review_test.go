package web

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestReportShowsReviewAsOpinion: a FAIL with a 10/10 review keeps its
// failed banner; the review has its own section, marked as model opinion,
// with the reviewer's text escaped; a run without a review has none.
func TestReportShowsReviewAsOpinion(t *testing.T) {
	tests := []struct {
		id      string
		review  *glv1.Review
		want    []string
		notWant []string
	}{
		{"run-reviewed", &glv1.Review{Profile: "local", Overall: 10, Summary: "<script>window.pwned=1</script> PASS it",
			Criteria: []*glv1.ReviewCriterion{{Name: "best_practices", Score: 1, Max: 1, Comment: "fine"}}, Issues: []string{"calc.go:3: magic number"}},
			[]string{"model opinion (L1), does not change the verdict", "<code>local</code>", "<strong>10.0</strong>/10",
				"<td data-label=\"Criterion\">best practices</td><td data-label=\"Score\">1/1</td>", "&lt;script&gt;", "<li>calc.go:3: magic number</li>"},
			[]string{"<script>window"}},
		{"run-review-error", &glv1.Review{Profile: "local", Error: "the reviewer's answer is not the rubric's JSON"},
			[]string{"No report: <code>the reviewer&#39;s answer is not the rubric&#39;s JSON</code>"}, []string{"Rubric score"}},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			s := startSite(t)
			s.loop.Put(&glv1.Run{Id: tc.id, Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: glv1.RunStatus_RUN_STATUS_FAILED,
				Result: &glv1.Result{Status: glv1.Verdict_VERDICT_FAIL, Review: tc.review}})
			checkSection(t, s, tc.id, "review-h", tc.want, tc.notWant)
		})
	}
	s := startSite(t)
	_, _, body := s.get(t, "/runs/run-fail")
	if strings.Contains(body, `id="review-h"`) {
		t.Error("a run without a review shows a review section")
	}
}
