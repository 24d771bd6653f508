package contract

import glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"

// ReviewNote is what every rendering of a review says next to it.
const ReviewNote = "model opinion (L1), does not change the verdict"

// Review is a reviewer model's report on the change (verify --reviewer):
// the seed's rubric scored 0-10. It is model opinion, an L1 signal: status,
// score and level never read it.
type Review struct {
	// Note is ReviewNote, so that a reader of the JSON alone knows what
	// this is.
	Note    string `json:"note"`
	Profile string `json:"profile"`
	// Overall is the sum of the criteria's scores, 0-10.
	Overall  float64           `json:"overall"`
	Criteria []ReviewCriterion `json:"criteria"`
	Summary  string            `json:"summary"`
	Issues   []string          `json:"issues"`
	// Error says why there is no report (the reviewer failed or answered
	// malformed JSON); "" otherwise.
	Error     string  `json:"error"`
	Usage     Usage   `json:"usage"`
	CreatedAt *string `json:"created_at" jsonschema:"nullable"`
}

// ReviewCriterion is one rubric line: correctness (0-3), completeness
// (0-2), testing (0-2), code_quality (0-2), best_practices (0-1).
type ReviewCriterion struct {
	Name    string  `json:"name"`
	Score   float64 `json:"score"`
	Max     float64 `json:"max"`
	Comment string  `json:"comment"`
}

// reviewOf is nil when no reviewer was asked.
func reviewOf(r *glv1.Review) *Review {
	if r == nil {
		return nil
	}
	return &Review{
		Note: ReviewNote, Profile: r.GetProfile(), Overall: r.GetOverall(), Summary: r.GetSummary(), Issues: list(r.GetIssues()),
		Error: r.GetError(), Usage: usageOf(r.GetUsage()), CreatedAt: timeOf(r.GetCreatedAt()),
		Criteria: mapList(r.GetCriteria(), func(c *glv1.ReviewCriterion) ReviewCriterion {
			return ReviewCriterion{Name: c.GetName(), Score: c.GetScore(), Max: c.GetMax(), Comment: c.GetComment()}
		}),
	}
}
