package summary

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/progress"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/termtext"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// RunsTable writes one row per run: id, kind, status, created, duration,
// source directory.
func RunsTable(w io.Writer, runs []*glv1.Run) {
	var b strings.Builder
	runsTable(&b, runs)
	_, _ = io.WriteString(w, termtext.Clean(b.String())) // source dirs are the client's words
}

func runsTable(w io.Writer, runs []*glv1.Run) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tKIND\tSTATUS\tCREATED\tDURATION\tSOURCE")
	for _, r := range runs {
		created := "-"
		if t := r.GetCreatedAt(); t != nil {
			created = t.AsTime().Local().Format(time.DateTime)
		}
		dur := "-"
		if r.GetStartedAt() != nil && r.GetFinishedAt() != nil {
			dur = progress.Duration(r.GetFinishedAt().AsTime().Sub(r.GetStartedAt().AsTime()))
		}
		src := r.GetSourceDir()
		if src == "" {
			src = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.GetId(), display.Enum(r.GetKind()),
			progress.RunStatus(r.GetStatus()), created, dur, src)
	}
	_ = tw.Flush()
}
