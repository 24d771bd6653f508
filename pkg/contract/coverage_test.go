package contract

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestCoverageInTheContract: measured coverage is rendered per file and in
// total with the fix run's baseline, the score's component beside the
// total; it changes neither the status nor the total, and a result without
// coverage says null for both.
func TestCoverageInTheContract(t *testing.T) {
	res := failingResult()
	res.Coverage = &glv1.Coverage{CoveredLines: 3, TotalLines: 6, Percent: 50, Tools: []string{"coverage.py (pytest-cov)"},
		Files: []*glv1.FileCoverage{
			{Path: "calc/__init__.py", CoveredLines: 3, TotalLines: 4, Percent: 75},
			{Path: "calc/new.py", CoveredLines: 0, TotalLines: 2, Percent: 0, UncoveredChange: 2, NewFile: true},
		},
		Baseline: &glv1.CoverageBaseline{CoveredLines: 3, TotalLines: 4, Percent: 75}}
	res.Score.Coverage, res.Score.CoverageMeasured = 0.5, true
	measured := FromRun(verifyRun(res, glv1.RunStatus_RUN_STATUS_FAILED))
	plain := FromRun(verifyRun(failingResult(), glv1.RunStatus_RUN_STATUS_FAILED))
	tests := []struct {
		name     string
		doc      *Result
		measured bool
	}{
		{"measured", measured, true},
		{"not measured", plain, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.doc.Status != plain.Status || tc.doc.Score.Total != plain.Score.Total || tc.doc.Level != plain.Level {
				t.Errorf("status %s total %v level %s, want those without coverage: %s %v %s",
					tc.doc.Status, tc.doc.Score.Total, tc.doc.Level, plain.Status, plain.Score.Total, plain.Level)
			}
			b, err := Marshal(tc.doc)
			if err != nil {
				t.Fatal(err)
			}
			validate(t, compiled(t), b)
			if !tc.measured {
				if !strings.Contains(string(b), `"coverage": null`) || tc.doc.Score.Coverage != nil {
					t.Errorf("unmeasured coverage not null:\n%s", b)
				}
				return
			}
			c := tc.doc.Coverage
			if c == nil || len(c.Files) != 2 || !c.Files[1].NewFile || c.Files[1].UncoveredChange != 2 || c.Baseline == nil || c.Baseline.Percent != 75 {
				t.Fatalf("coverage = %+v", c)
			}
			if tc.doc.Score.Coverage == nil || *tc.doc.Score.Coverage != 0.5 {
				t.Errorf("score coverage = %v, want 0.5", tc.doc.Score.Coverage)
			}
			golden(t, "verify-fail-coverage.json", b)
		})
	}
}
