package transition

import (
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// A probe's transitions cover the tests it ran and nothing else: the
// baseline's other tests are not "disappeared", the record is incomplete
// and ungraded.
func TestProbedListsOnlyTheTestsThatRan(t *testing.T) {
	base := side(false, map[string]byte{"a": 'p', "b": 'f', "c": 'f', "d": 'p'})
	probe := side(false, map[string]byte{"b": 'f', "c": 'p'})
	got := Probed(base, probe)
	if got.FailToFail != 1 || got.FailToPass != 1 || got.Disappeared != 0 || got.PassToPass != 0 || got.PassToFail != 0 {
		t.Errorf("counts %v, want one FAIL_TO_FAIL and one FAIL_TO_PASS", got)
	}
	if got.GetComplete() || got.GetResolution() != glv1.Resolution_RESOLUTION_UNSPECIFIED {
		t.Errorf("a probe is complete=%v resolution=%v; want incomplete and ungraded", got.GetComplete(), got.GetResolution())
	}
	if len(got.Changes) != 2 || got.Changes[0].GetId() != "b" || got.Changes[1].GetId() != "c" {
		t.Errorf("changes %v, want b then c", got.Changes)
	}
}
