package summary

import (
	"fmt"
	"io"
	"strings"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/termtext"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// maxWorseFiles bounds the files the coverage line names.
const maxWorseFiles = 5

// coverage writes the measured coverage in one line (with a fix run's
// baseline and the files a patch left with more uncovered lines), after
// the score it is beside.
func coverage(w io.Writer, c *glv1.Coverage) {
	if c == nil {
		return
	}
	fmt.Fprintf(w, "Coverage: %.1f%% (%d of %d) by %s", c.GetPercent(), c.GetCoveredLines(), c.GetTotalLines(),
		termtext.Line(strings.Join(c.GetTools(), ", "), 80))
	if b := c.GetBaseline(); b != nil {
		fmt.Fprintf(w, ", baseline %.1f%%", b.GetPercent())
	}
	fmt.Fprintln(w)
	var worse []string
	for _, f := range c.GetFiles() {
		if f.GetUncoveredChange() > 0 {
			worse = append(worse, fmt.Sprintf("%s (+%d)", termtext.Line(f.GetPath(), 120), f.GetUncoveredChange()))
		}
	}
	if len(worse) == 0 {
		return
	}
	more := ""
	if len(worse) > maxWorseFiles {
		more = fmt.Sprintf(" and %d more", len(worse)-maxWorseFiles)
		worse = worse[:maxWorseFiles]
	}
	fmt.Fprintf(w, "          new uncovered lines: %s%s\n", strings.Join(worse, ", "), more)
}
