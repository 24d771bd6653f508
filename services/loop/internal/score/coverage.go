package score

import (
	"fmt"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Coverage records the measured line coverage (a fraction, 0-1) as the
// score's coverage component, beside the total. Only when the repository
// asks for it (greenlight.yaml coverage.score, fold) does it feed the
// formula, as the seed suggests: the tests component keeps half its points
// for the pass rate and scales the other half by the coverage
// (tests × (0.5 + 0.5 × coverage)), so a trivial suite that passes scores
// below a real one. Folding only lowers the total, and only a
// deterministic one; off (the default) the total, the threshold and every
// verdict stay as they were.
func Coverage(s *glv1.Score, fraction float64, fold bool) {
	if s == nil {
		return
	}
	fraction = min(max(fraction, 0), 1)
	s.Coverage, s.CoverageMeasured = fraction, true
	if !fold || s.GetDecidedBy() != glv1.ScoreSource_SCORE_SOURCE_DETERMINISTIC || s.GetTests() == 0 {
		return
	}
	scaled := round2(s.GetTests() * (0.5 + 0.5*fraction))
	s.Total = round2(s.GetTotal() - (s.GetTests() - scaled))
	s.Rule += fmt.Sprintf("; coverage.score: tests %g × (0.5 + 0.5 × coverage %.1f%%) = %g, total %g",
		s.GetTests(), fraction*100, scaled, s.Total)
	s.Tests = scaled
}
