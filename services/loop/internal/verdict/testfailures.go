package verdict

import (
	"regexp"

	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// testFailures walks the report's failed tests (failures that name a
// test; compiler or installer diagnostics do not): seen counts them, all
// says every one's message matches re, and first is the matching line of
// the first. The environment rules (needs-network, needs-host-service,
// disk-full) excuse a step only when all its failed tests failed that way.
func testFailures(rep *parse.StepReport, re *regexp.Regexp) (first string, seen int, all bool) {
	for _, f := range rep.Failures {
		if f.Test == "" {
			continue
		}
		line := matchingLine(f.Message, re)
		if line == "" {
			return "", seen, false
		}
		if first == "" {
			first = line
		}
		seen++
	}
	return first, seen, true
}
