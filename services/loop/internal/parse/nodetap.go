package parse

import (
	"fmt"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// tapDiag holds node-tap's YAML diagnostics of a failed test point: an
// assertion's found/wanted/compare and diff, or a thrown error's type
// (tapCaught says tap caught it).
type tapDiag struct {
	found, wanted, compare, errType string
	diff                            msgBuf
	assertion, caught               bool
}

// value records one top-level YAML key.
func (d *tapDiag) value(key, v string) {
	switch key {
	case "found":
		d.found, d.assertion = v, true
	case "wanted":
		d.wanted, d.assertion = v, true
	case "compare", "pattern":
		d.compare, d.assertion = v, true
	case "diff":
		d.assertion = true
		if d.diff.max == 0 {
			d.diff.max = 4096
		}
	case "tapCaught":
		d.caught = true
	}
}

// message builds a failed point's message from node-tap's diagnostics,
// whose point name is the assertion's message ("should be equal") or the
// thrown error's, and the failure kind they show (0: classify it).
func (d *tapDiag) message(name string, max int) (string, glv1.FailureKind) {
	switch {
	case d.assertion:
		msg := name
		if d.found != "" || d.wanted != "" {
			msg += fmt.Sprintf(": found %s, wanted %s", d.found, d.wanted)
		}
		if d.compare != "" {
			msg += " (" + d.compare + ")"
		}
		if diff := d.diff.String(); diff != "" {
			msg += "\n" + diff
		}
		return capString(msg, max), glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION
	case d.caught:
		if d.errType != "" && d.errType != "test" && d.errType != "suite" && d.errType != "Test" {
			return d.errType + ": " + name, glv1.FailureKind_FAILURE_KIND_TEST_ERROR
		}
		return name, glv1.FailureKind_FAILURE_KIND_TEST_ERROR
	}
	return "", glv1.FailureKind_FAILURE_KIND_UNSPECIFIED
}
