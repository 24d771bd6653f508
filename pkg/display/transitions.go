package display

import (
	"fmt"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Transitions renders a fix round's test transitions against the baseline
// in one line: "resolution FULL; tests 2 fail→pass, 40 pass→pass,
// 1 fail→fail; target 2/2 fail→pass, 40/40 pass→pass". "" for nil.
func Transitions(t *glv1.Transitions) string {
	if t == nil {
		return ""
	}
	var parts []string
	for _, c := range []struct {
		n    int32
		name string
	}{
		{t.GetFailToPass(), "fail→pass"}, {t.GetPassToPass(), "pass→pass"}, {t.GetPassToFail(), "pass→fail"},
		{t.GetFailToFail(), "fail→fail"}, {t.GetNewTests(), "new"}, {t.GetDisappeared(), "disappeared"},
	} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.name))
		}
	}
	tests := "no tests"
	if len(parts) > 0 {
		tests = "tests " + strings.Join(parts, ", ")
	}
	s := fmt.Sprintf("resolution %s; %s; target %d/%d fail→pass, %d/%d pass→pass", Resolution(t.GetResolution()), tests,
		t.GetTargetFailToPassPassed(), t.GetTargetFailToPass(), t.GetTargetPassToPassPassed(), t.GetTargetPassToPass())
	if fs := t.GetFailingTargetSteps(); len(fs) > 0 {
		s += "; target steps failing: " + strings.Join(fs, ", ")
	}
	if fs := t.GetFailingOutsideTarget(); len(fs) > 0 {
		s += "; failing outside the target (as at baseline): " + strings.Join(fs, ", ")
	}
	if !t.GetComplete() {
		s += " (inventory incomplete: some tests were counted but not named)"
	}
	return s
}

// Resolution is FULL, PARTIAL or NO ("-" when unknown).
func Resolution(r glv1.Resolution) string {
	switch r {
	case glv1.Resolution_RESOLUTION_FULL:
		return "FULL"
	case glv1.Resolution_RESOLUTION_PARTIAL:
		return "PARTIAL"
	case glv1.Resolution_RESOLUTION_NO:
		return "NO"
	}
	return "-"
}

// TransitionKind is the short name of a kind: FAIL_TO_PASS, NEW, ...
func TransitionKind(k glv1.TransitionKind) string {
	return Enum(k)
}
