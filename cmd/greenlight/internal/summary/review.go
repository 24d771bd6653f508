package summary

import (
	"fmt"
	"io"
	"strings"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/termtext"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/contract"
)

// review writes the reviewer's report in one line, labelled as model
// opinion, after the score it does not change.
func review(w io.Writer, r *glv1.Review) {
	if r == nil {
		return
	}
	if r.GetError() != "" {
		fmt.Fprintf(w, "Review:   none from %s: %s\n", r.GetProfile(), termtext.Line(r.GetError(), 160))
		return
	}
	parts := make([]string, 0, len(r.GetCriteria()))
	for _, c := range r.GetCriteria() {
		parts = append(parts, fmt.Sprintf("%s %g/%g", strings.ReplaceAll(c.GetName(), "_", " "), c.GetScore(), c.GetMax()))
	}
	fmt.Fprintf(w, "Review:   %.1f/10 by %s (%s): %s\n", r.GetOverall(), r.GetProfile(), contract.ReviewNote, strings.Join(parts, ", "))
	if s := r.GetSummary(); s != "" {
		fmt.Fprintf(w, "          %s\n", termtext.Line(s, 160))
	}
}
