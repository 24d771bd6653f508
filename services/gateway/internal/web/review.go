package web

import (
	"fmt"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/contract"
)

// reviewView is the reviewer's report: model opinion, shown apart from
// the verdict, which it never changes.
type reviewView struct {
	Note, Profile, Overall, Summary, Error string
	Criteria                               []reviewCriterionView
	Issues                                 []string
}

type reviewCriterionView struct {
	Name, Score, Comment string
}

// newReviewView is nil when no reviewer was asked.
func newReviewView(r *glv1.Review) *reviewView {
	if r == nil {
		return nil
	}
	v := &reviewView{Note: contract.ReviewNote, Profile: r.GetProfile(), Summary: r.GetSummary(), Error: r.GetError(),
		Issues: r.GetIssues()}
	if v.Error != "" {
		return v
	}
	v.Overall = fmt.Sprintf("%.1f", r.GetOverall())
	for _, c := range r.GetCriteria() {
		v.Criteria = append(v.Criteria, reviewCriterionView{Name: strings.ReplaceAll(c.GetName(), "_", " "),
			Score: fmt.Sprintf("%g/%g", c.GetScore(), c.GetMax()), Comment: c.GetComment()})
	}
	return v
}
