package web

import (
	"fmt"
	"sort"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/contract"
)

// maxCoverageRows bounds the files the page lists.
const maxCoverageRows = 100

// coverageView is the measured coverage, shown apart from the verdict.
type coverageView struct {
	Note, Total, Tools, Baseline string
	HasBaseline                  bool
	Files                        []coverageFileView
	// More counts the files not listed.
	More int
}

type coverageFileView struct {
	Path, Covered, Percent, Change string
	// Worse: a patch left the file with more uncovered lines.
	Worse bool
}

// newCoverageView is nil when nothing was measured. Files a patch left
// with more uncovered lines come first, then the least covered.
func newCoverageView(c *glv1.Coverage) *coverageView {
	if c == nil {
		return nil
	}
	v := &coverageView{Note: contract.CoverageNote, Tools: joinComma(c.GetTools()),
		Total: fmt.Sprintf("%.1f%% (%d of %d)", c.GetPercent(), c.GetCoveredLines(), c.GetTotalLines())}
	if b := c.GetBaseline(); b != nil {
		v.HasBaseline = true
		v.Baseline = fmt.Sprintf("%.1f%% (%+.1f points)", b.GetPercent(), c.GetPercent()-b.GetPercent())
	}
	files := append([]*glv1.FileCoverage(nil), c.GetFiles()...)
	sort.SliceStable(files, func(i, j int) bool {
		a, b := files[i], files[j]
		if a.GetUncoveredChange() != b.GetUncoveredChange() {
			return a.GetUncoveredChange() > b.GetUncoveredChange()
		}
		return a.GetPercent() < b.GetPercent()
	})
	for i, f := range files {
		if i == maxCoverageRows {
			v.More = len(files) - i
			break
		}
		fv := coverageFileView{Path: f.GetPath(), Covered: fmt.Sprintf("%d/%d", f.GetCoveredLines(), f.GetTotalLines()),
			Percent: fmt.Sprintf("%.1f", f.GetPercent()), Worse: f.GetUncoveredChange() > 0}
		if v.HasBaseline {
			fv.Change = fmt.Sprintf("%+d", f.GetUncoveredChange())
			if f.GetNewFile() {
				fv.Change += " (new file)"
			}
		}
		v.Files = append(v.Files, fv)
	}
	v.More += int(c.GetFilesOmitted())
	return v
}

// joinComma joins names with ", ".
func joinComma(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}
