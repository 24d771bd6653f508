package eval

import (
	"slices"
	"testing"
)

// TestSplitNeedsEvidenceOfPassing checks that a target is reported as a
// success only when the grade shows it passing: never from an ungraded
// record (a probe's rollback) or for an id the grade could not name.
func TestSplitNeedsEvidenceOfPassing(t *testing.T) {
	targets := []string{"TestA", "TestB", "TestNoSuchTest"}
	cases := []struct {
		name           string
		failing        []string
		allPass, named bool
		success        []string
	}{
		{"resolved: every target passes", nil, true, false, []string{"TestA", "TestB", "TestNoSuchTest"}},
		{"graded with a failing list", []string{"TestB", "TestNoSuchTest"}, false, true, []string{"TestA"}},
		{"ungraded probe rollback", nil, false, false, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := split(targets, c.failing, c.allPass, c.named)
			if !slices.Equal(got.Success, c.success) && !(len(got.Success) == 0 && len(c.success) == 0) {
				t.Errorf("success %q, want %q", got.Success, c.success)
			}
			if len(got.Success)+len(got.Failure) != len(targets) {
				t.Errorf("split lost targets: %+v", got)
			}
		})
	}
}
