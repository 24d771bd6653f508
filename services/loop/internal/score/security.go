package score

import (
	"fmt"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// security is the security component (0-1, the seed's suggestion): 1 when
// the security steps that ran found nothing, 0.5 with only low or medium
// findings, 0 with a high one or a scan that failed without a parsable
// finding. It is reported beside the total, never added to it: the 3/4/2/1
// scale, the pass threshold and every verdict stay as they were.
type security struct {
	ran      bool
	findings int
	high     bool
	unknown  []string
}

// add counts one security step.
func (s *security) add(o StepOutcome) {
	if !ran(status(o)) {
		return
	}
	s.ran = true
	rep := o.Report
	n := 0
	if rep != nil {
		n = rep.SecurityFindings
		for _, f := range rep.Failures {
			if f.Kind == glv1.FailureKind_FAILURE_KIND_SECURITY && f.Severity == parse.SeverityHigh {
				s.high = true
			}
		}
	}
	s.findings += n
	if n == 0 && !effectiveOK(o) {
		s.unknown = append(s.unknown, o.name())
	}
}

// points is the component and why.
func (s *security) points() (float64, string) {
	switch {
	case len(s.unknown) > 0:
		return 0, fmt.Sprintf("%s failed without a parsable finding", s.unknown[0])
	case s.high:
		return 0, fmt.Sprintf("%d finding(s), one of high severity", s.findings)
	case s.findings > 0:
		return 0.5, fmt.Sprintf("%d low or medium finding(s)", s.findings)
	}
	return 1, "no findings"
}

// fill sets the score's security fields.
func (s *security) fill(sc *glv1.Score) {
	if !s.ran {
		return
	}
	sc.SecurityRan, sc.SecurityFindings = true, int32(s.findings)
	sc.Security, _ = s.points()
}

// note is the rule's sentence on security, empty when no scan ran.
func (s *security) note() string {
	if !s.ran {
		return ""
	}
	p, why := s.points()
	return fmt.Sprintf("; security %g/1 (%s), reported beside the total, not in it", p, why)
}
