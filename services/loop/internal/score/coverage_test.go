package score

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func TestCoverage(t *testing.T) {
	det := glv1.ScoreSource_SCORE_SOURCE_DETERMINISTIC
	tests := []struct {
		name       string
		score      *glv1.Score
		fraction   float64
		fold       bool
		wantTotal  float64
		wantTests  float64
		wantRule   string
		wantCovers float64
	}{
		{name: "off by default: beside the total only", score: &glv1.Score{Total: 10, Tests: 4, DecidedBy: det, Rule: "r"},
			fraction: 0.2, wantTotal: 10, wantTests: 4, wantRule: "r", wantCovers: 0.2},
		{name: "folded: half the tests points scale with coverage", score: &glv1.Score{Total: 10, Tests: 4, DecidedBy: det, Rule: "r"},
			fraction: 0.2, fold: true, wantTotal: 8.4, wantTests: 2.4, wantRule: "r; coverage.score: tests 4 × (0.5 + 0.5 × coverage 20.0%) = 2.4, total 8.4", wantCovers: 0.2},
		{name: "folded, full coverage changes nothing", score: &glv1.Score{Total: 10, Tests: 4, DecidedBy: det, Rule: "r"},
			fraction: 1, fold: true, wantTotal: 10, wantTests: 4, wantCovers: 1},
		{name: "folded, no tests points: nothing to scale", score: &glv1.Score{Total: 6, Tests: 0, DecidedBy: det, Rule: "r"},
			fraction: 0, fold: true, wantTotal: 6, wantTests: 0, wantRule: "r"},
		{name: "folded, a model decides: the number is the model's", score: &glv1.Score{Total: 9, Tests: 4, DecidedBy: glv1.ScoreSource_SCORE_SOURCE_MODEL, Rule: "r"},
			fraction: 0.5, fold: true, wantTotal: 9, wantTests: 4, wantRule: "r", wantCovers: 0.5},
		{name: "out of range clamps", score: &glv1.Score{Total: 10, Tests: 4, DecidedBy: det},
			fraction: 1.7, fold: true, wantTotal: 10, wantTests: 4, wantCovers: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			Coverage(tt.score, tt.fraction, tt.fold)
			s := tt.score
			if !s.GetCoverageMeasured() || s.GetCoverage() != tt.wantCovers {
				t.Errorf("coverage %v measured %v, want %v", s.GetCoverage(), s.GetCoverageMeasured(), tt.wantCovers)
			}
			if s.GetTotal() != tt.wantTotal || s.GetTests() != tt.wantTests {
				t.Errorf("total %v tests %v, want %v %v", s.GetTotal(), s.GetTests(), tt.wantTotal, tt.wantTests)
			}
			if tt.wantRule != "" && s.GetRule() != tt.wantRule {
				t.Errorf("rule %q, want %q", s.GetRule(), tt.wantRule)
			}
			if s.GetTotal() > 10 || strings.Contains(s.GetRule(), "coverage.score") != (tt.fold && tt.wantTests != 0 && s.GetDecidedBy() == det) {
				t.Errorf("rule %q", s.GetRule())
			}
		})
	}
	Coverage(nil, 0.5, true) // no score (ERROR): nothing to record
}
