package review

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// errMalformed marks a reviewer answer that is not the rubric's JSON.
var errMalformed = errors.New("the reviewer's answer is not the rubric's JSON")

// answer is the JSON a reviewer replies with.
type answer struct {
	Criteria map[string]struct {
		Score   *float64 `json:"score"`
		Comment string   `json:"comment"`
	} `json:"criteria"`
	Summary string   `json:"summary"`
	Issues  []string `json:"issues"`
}

// Bounds on what a report keeps of the reviewer's prose.
const (
	maxTextBytes = 4 << 10
	maxIssues    = 50
)

// parse reads a reply: one JSON object, possibly inside a Markdown fence
// or with prose around it. Every rubric line must be present with a score
// in range; the overall score is their sum, whatever total the reviewer
// claims.
func parse(reply string) (*glv1.Review, error) {
	text := strings.TrimSpace(reply)
	i, j := strings.Index(text, "{"), strings.LastIndex(text, "}")
	if i < 0 || j < i {
		return nil, fmt.Errorf("%w: no JSON object in %q", errMalformed, clip(text, 200))
	}
	var a answer
	if err := json.Unmarshal([]byte(text[i:j+1]), &a); err != nil {
		return nil, fmt.Errorf("%w: %v", errMalformed, err)
	}
	rev := &glv1.Review{Summary: clip(a.Summary, maxTextBytes)}
	for _, c := range Rubric {
		got, ok := a.Criteria[c.Name]
		switch {
		case !ok || got.Score == nil:
			return nil, fmt.Errorf("%w: criterion %q has no score", errMalformed, c.Name)
		case math.IsNaN(*got.Score) || *got.Score < 0 || *got.Score > c.Max:
			return nil, fmt.Errorf("%w: criterion %q scores %g, outside 0-%g", errMalformed, c.Name, *got.Score, c.Max)
		}
		rev.Criteria = append(rev.Criteria, &glv1.ReviewCriterion{Name: c.Name, Score: *got.Score, Max: c.Max, Comment: clip(got.Comment, maxTextBytes)})
		rev.Overall += *got.Score
	}
	for _, s := range a.Issues[:min(len(a.Issues), maxIssues)] {
		rev.Issues = append(rev.Issues, clip(s, maxTextBytes))
	}
	return rev, nil
}

// clip bounds a text at max bytes (on a rune boundary).
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	for max > 0 && !utf8Start(s[max]) {
		max--
	}
	return s[:max] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
