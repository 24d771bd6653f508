package parse

import (
	"fmt"
	"slices"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// tapDiag holds node-tap's YAML diagnostics of a failed test point: an
// assertion's found/wanted/compare and diff, or a thrown error's type
// (tapCaught says tap caught it).
type tapDiag struct {
	found, wanted, compare, errType string
	diff                            msgBuf
	assertion, caught               bool
	// tape's assertion keys: operator (equal, deepEqual, error, …),
	// expected and actual (one line, or a `|-` block below the key).
	operator, expected, actual string
	// errors are the messages of errors found/wanted hold (`message:`
	// lines of a `!error` block), and tap's own (`tapError:`).
	errors []string
	// signal and timeout: tap killed the test file (its per-file timeout).
	signal, timeout string
}

// maxTAPErrors bounds the nested error messages kept per test point.
const maxTAPErrors = 4

// nested reads a line of a found/wanted/failures block.
func (d *tapDiag) nested(s []byte) {
	line := strings.TrimPrefix(string(s), "- ")
	for _, key := range []string{"message: ", "tapError: "} {
		if v, ok := strings.CutPrefix(line, key); ok && len(d.errors) < maxTAPErrors {
			d.errors = append(d.errors, strings.Trim(v, `'"`))
		}
	}
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
	case "signal":
		d.signal = v
	case "timeout":
		d.timeout = v
	case "operator":
		d.operator = v
	case "expected":
		d.expected = yamlScalar(v)
	case "actual":
		d.actual = yamlScalar(v)
	}
}

// maxTAPValue bounds an expected or actual value kept for a message.
const maxTAPValue = 512

// more adds a line of a multi-line expected/actual block (tape's `|-`).
func (d *tapDiag) more(key string, s []byte) {
	p := &d.expected
	if key == "actual" {
		p = &d.actual
	}
	if len(*p)+len(s) > maxTAPValue {
		return
	}
	if *p != "" {
		*p += "\n"
	}
	*p += string(s)
}

// yamlScalar drops a block scalar's indicator (`|-`, `>`): its lines follow.
func yamlScalar(v string) string {
	switch v {
	case "|", "|-", "|+", ">", ">-", ">+":
		return ""
	}
	return v
}

// message builds a failed point's message from node-tap's diagnostics,
// whose point name is the assertion's message ("should be equal") or the
// thrown error's, and the failure kind they show (0: classify it).
func (d *tapDiag) message(name string, max int) (string, glv1.FailureKind) {
	switch {
	case d.signal != "":
		msg := fmt.Sprintf("%s: killed by %s", name, d.signal)
		if d.timeout != "" {
			msg += fmt.Sprintf(" (tap's per-file timeout is %s ms)", d.timeout)
		}
		if len(d.errors) > 0 {
			msg += ": " + strings.Join(d.errors, "; ")
		}
		return msg, glv1.FailureKind_FAILURE_KIND_TIMEOUT
	case d.assertion && d.found == "" && d.wanted == "" && len(d.errors) > 0:
		kind := glv1.FailureKind_FAILURE_KIND_TEST_ERROR
		if slices.Contains(d.errors, "timeout!") {
			kind = glv1.FailureKind_FAILURE_KIND_TIMEOUT
		}
		return capString(name+": "+strings.Join(d.errors, "; "), max), kind
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
	case d.operator == "error":
		// tape's t.error(err) and a rejected async test: the point's name
		// is the error's message.
		return name, glv1.FailureKind_FAILURE_KIND_TEST_ERROR
	case d.operator != "":
		msg := name
		if d.expected != "" || d.actual != "" {
			msg += fmt.Sprintf(": expected %s, actual %s", d.expected, d.actual)
		}
		return capString(msg+" ("+d.operator+")", max), glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION
	case d.caught:
		if d.errType != "" && d.errType != "test" && d.errType != "suite" && d.errType != "Test" {
			return d.errType + ": " + name, glv1.FailureKind_FAILURE_KIND_TEST_ERROR
		}
		return name, glv1.FailureKind_FAILURE_KIND_TEST_ERROR
	}
	return "", glv1.FailureKind_FAILURE_KIND_UNSPECIFIED
}
