package cireport

import (
	"fmt"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/contract"
)

// maxReviewIssues bounds the reviewer's issues a report lists.
const maxReviewIssues = 10

// mdReview is the reviewer's report, under a heading that says it is
// model opinion. The reviewer's words are untrusted (they may echo the
// diff): they are escaped and clipped like sandbox text.
func mdReview(b *strings.Builder, res *glv1.Result) {
	r := res.GetReview()
	if r == nil {
		return
	}
	fmt.Fprintf(b, "### Reviewer's report: %s\n\n", contract.ReviewNote)
	if r.GetError() != "" {
		fmt.Fprintf(b, "No report from reviewer %s: %s\n\n", code(r.GetProfile()), code(clip(firstLine(clean(r.GetError())), cellWidth)))
		return
	}
	fmt.Fprintf(b, "Reviewer %s rates the change **%.1f/10**.\n\n", code(r.GetProfile()), r.GetOverall())
	b.WriteString("| Criterion | Score | Comment |\n|---|---|---|\n")
	for _, c := range r.GetCriteria() {
		fmt.Fprintf(b, "| %s | %g/%g | %s |\n", strings.ReplaceAll(c.GetName(), "_", " "), c.GetScore(), c.GetMax(),
			reviewText(c.GetComment(), cellWidth))
	}
	b.WriteString("\n")
	if s := r.GetSummary(); s != "" {
		fmt.Fprintf(b, "%s\n\n", reviewText(s, 4*cellWidth))
	}
	for i, is := range r.GetIssues() {
		if i == maxReviewIssues {
			fmt.Fprintf(b, "- (%d more)\n", len(r.GetIssues())-i)
			break
		}
		fmt.Fprintf(b, "- %s\n", reviewText(is, cellWidth))
	}
	if len(r.GetIssues()) > 0 {
		b.WriteString("\n")
	}
}

// reviewText is reviewer prose on one line: cleaned, clipped, escaped
// (mdText escapes '|' too, so it is safe in a table cell).
func reviewText(s string, n int) string {
	return mdText(clip(strings.Join(strings.Fields(clean(s)), " "), n))
}
