package web

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestReportShowsCoverage: a FAIL with measured coverage keeps its failed
// banner; coverage has its own section with the total, the tool, the note
// that it does not change the verdict and the files (a patch's new
// uncovered lines first, file names escaped); a run without coverage has
// none.
func TestReportShowsCoverage(t *testing.T) {
	tests := []struct {
		id       string
		coverage *glv1.Coverage
		want     []string
		notWant  []string
	}{
		{"run-covered", &glv1.Coverage{CoveredLines: 1, TotalLines: 5, Percent: 20, Tools: []string{"go test -coverprofile"},
			Files: []*glv1.FileCoverage{
				{Path: "calc/calc.go", CoveredLines: 1, TotalLines: 4, Percent: 25},
				{Path: "<b>main.go", CoveredLines: 0, TotalLines: 1, Percent: 0},
			}},
			[]string{"<strong>20.0% (1 of 5)</strong>", "<code>go test -coverprofile</code>", "does not change the verdict",
				`<td data-label="File"><code>&lt;b&gt;main.go</code></td><td data-label="Covered">0/1</td><td data-label="%">0.0</td></tr>` + "\n" +
					`<tr><td data-label="File"><code>calc/calc.go</code></td>`},
			[]string{"<b>main", "baseline", "New uncovered"}},
		{"run-covered-fix", &glv1.Coverage{CoveredLines: 3, TotalLines: 8, Percent: 37.5, Tools: []string{"coverage.py (pytest-cov)"},
			Baseline: &glv1.CoverageBaseline{CoveredLines: 3, TotalLines: 6, Percent: 50},
			Files: []*glv1.FileCoverage{
				{Path: "calc/__init__.py", CoveredLines: 3, TotalLines: 6, Percent: 50},
				{Path: "calc/new.py", TotalLines: 2, UncoveredChange: 2, NewFile: true},
			}},
			[]string{"baseline 50.0% (-12.5 points)", `<th scope="col">New uncovered</th>`,
				`<tr class="worse"><td data-label="File"><code>calc/new.py</code></td><td data-label="Covered">0/2</td><td data-label="%">0.0</td><td data-label="New uncovered">&#43;2 (new file)</td>`},
			nil},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			s := startSite(t)
			s.loop.Put(&glv1.Run{Id: tc.id, Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: glv1.RunStatus_RUN_STATUS_FAILED,
				Result: &glv1.Result{Status: glv1.Verdict_VERDICT_FAIL, Coverage: tc.coverage}})
			checkSection(t, s, tc.id, "coverage-h", tc.want, tc.notWant)
		})
	}
	s := startSite(t)
	_, _, body := s.get(t, "/runs/run-fail")
	if strings.Contains(body, `id="coverage-h"`) {
		t.Error("a run without coverage shows a coverage section")
	}
}
