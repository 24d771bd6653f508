package summary

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestTextShowsCoverage: a FAIL keeps its banner with coverage measured,
// which is one line after the score (the baseline and the files a patch
// left with more uncovered lines on a second), cleaned of escapes.
func TestTextShowsCoverage(t *testing.T) {
	many := &glv1.Coverage{CoveredLines: 1, TotalLines: 20, Percent: 5, Tools: []string{"go test -coverprofile"},
		Baseline: &glv1.CoverageBaseline{Percent: 10}}
	for i := 0; i < 7; i++ {
		many.Files = append(many.Files, &glv1.FileCoverage{Path: fmt.Sprintf("f%d.go", i), UncoveredChange: 1})
	}
	tests := []struct {
		name     string
		coverage *glv1.Coverage
		want     []string
		not      []string
	}{
		{"none", nil, []string{" FAIL "}, []string{"Coverage:"}},
		{"measured", &glv1.Coverage{CoveredLines: 3, TotalLines: 6, Percent: 50, Tools: []string{"coverage.py (pytest-cov)"},
			Files: []*glv1.FileCoverage{{Path: "calc/__init__.py", CoveredLines: 3, TotalLines: 6, Percent: 50}}},
			[]string{" FAIL ", "Coverage: 50.0% (3 of 6) by coverage.py (pytest-cov)\n"}, []string{"baseline", "new uncovered"}},
		{"fix run", &glv1.Coverage{CoveredLines: 1, TotalLines: 6, Percent: 16.7, Tools: []string{"go test -coverprofile"},
			Baseline: &glv1.CoverageBaseline{CoveredLines: 1, TotalLines: 5, Percent: 20},
			Files:    []*glv1.FileCoverage{{Path: "calc/extra\x1b[2J.go", TotalLines: 1, UncoveredChange: 1, NewFile: true}, {Path: "main.go", TotalLines: 1}}},
			[]string{"Coverage: 16.7% (1 of 6) by go test -coverprofile, baseline 20.0%\n", "          new uncovered lines: calc/extra"},
			[]string{"\x1b[2J", "main.go"}},
		{"many files", many, []string{"f4.go (+1) and 2 more\n"}, []string{"f5.go"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := failedRun()
			run.Result.Coverage = tc.coverage
			var b bytes.Buffer
			Text(&b, run, Options{})
			out := b.String()
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("summary lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(out, w) {
					t.Errorf("summary has %q:\n%s", w, out)
				}
			}
		})
	}
}
