package summary

import (
	"bytes"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestTextShowsReviewAsOpinion: a FAIL keeps its banner under a 10/10
// review, which is one labelled line after the score.
func TestTextShowsReviewAsOpinion(t *testing.T) {
	tests := []struct {
		name   string
		review *glv1.Review
		want   []string
		not    []string
	}{
		{"none", nil, []string{" FAIL "}, []string{"Review:"}},
		{"10/10", &glv1.Review{Profile: "local", Overall: 10, Summary: "ship it\x1b[2J",
			Criteria: []*glv1.ReviewCriterion{{Name: "correctness", Score: 3, Max: 3}, {Name: "code_quality", Score: 2, Max: 2}}},
			[]string{" FAIL ", "Review:   10.0/10 by local (model opinion (L1), does not change the verdict): correctness 3/3, code quality 2/2", "          ship it"},
			[]string{"\x1b[2J", " PASS "}},
		{"error", &glv1.Review{Profile: "local", Error: "the reviewer's answer is not the rubric's JSON"},
			[]string{"Review:   none from local: the reviewer's answer is not the rubric's JSON"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := failedRun()
			run.Result.Review = tc.review
			var b bytes.Buffer
			Text(&b, run, Options{})
			out := b.String()
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("summary lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(out, w) {
					t.Errorf("summary has %q:\n%s", w, out)
				}
			}
		})
	}
}
