package cireport

import (
	"fmt"
	"sort"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/contract"
)

// maxCoverageFiles bounds the files the Markdown coverage table lists.
const maxCoverageFiles = 15

// coverageFiles orders a result's per-file coverage for a report: files a
// patch left with more uncovered lines first (most first), then the least
// covered.
func coverageFiles(c *glv1.Coverage) []*glv1.FileCoverage {
	files := append([]*glv1.FileCoverage(nil), c.GetFiles()...)
	sort.SliceStable(files, func(i, j int) bool {
		a, b := files[i], files[j]
		if a.GetUncoveredChange() != b.GetUncoveredChange() {
			return a.GetUncoveredChange() > b.GetUncoveredChange()
		}
		return a.GetPercent() < b.GetPercent()
	})
	return files
}

// coverageTotal is "50.0% (3 of 6 lines)" with the change against a fix
// run's baseline.
func coverageTotal(c *glv1.Coverage) string {
	s := fmt.Sprintf("%.1f%% (%d of %d)", c.GetPercent(), c.GetCoveredLines(), c.GetTotalLines())
	if b := c.GetBaseline(); b != nil {
		s += fmt.Sprintf(", baseline %.1f%% (%+.1f points)", b.GetPercent(), c.GetPercent()-b.GetPercent())
	}
	return s
}

// mdCoverage is the coverage section: the total, the tools, and the files
// that matter most (a patch's new uncovered lines, then the least covered).
func mdCoverage(b *strings.Builder, res *glv1.Result) {
	c := res.GetCoverage()
	if c == nil {
		return
	}
	fmt.Fprintf(b, "### Coverage: %s\n\n", coverageTotal(c))
	fmt.Fprintf(b, "By %s (%s).\n\n", code(strings.Join(c.GetTools(), ", ")), contract.CoverageNote)
	files := coverageFiles(c)
	if len(files) == 0 {
		return
	}
	baseline := c.GetBaseline() != nil
	b.WriteString("| File | Covered | % |")
	if baseline {
		b.WriteString(" New uncovered |")
	}
	b.WriteString("\n|---|---|---|")
	if baseline {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for i, f := range files {
		if i == maxCoverageFiles {
			fmt.Fprintf(b, "\n… and %d more files\n", len(files)-i+int(c.GetFilesOmitted()))
			break
		}
		fmt.Fprintf(b, "| %s | %d/%d | %.1f |", cell(code(clean(f.GetPath()))), f.GetCoveredLines(), f.GetTotalLines(), f.GetPercent())
		if baseline {
			change := fmt.Sprintf("%+d", f.GetUncoveredChange())
			if f.GetNewFile() {
				change += " (new file)"
			}
			fmt.Fprintf(b, " %s |", change)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

// sarifCoverage puts the totals in the SARIF run's properties.
func sarifCoverage(props map[string]any, res *glv1.Result) {
	c := res.GetCoverage()
	if c == nil {
		return
	}
	props["coverage"] = map[string]any{
		"percent": c.GetPercent(), "coveredLines": c.GetCoveredLines(), "totalLines": c.GetTotalLines(), "tools": c.GetTools(),
	}
	if bl := c.GetBaseline(); bl != nil {
		props["coverage"].(map[string]any)["baselinePercent"] = bl.GetPercent()
	}
}
