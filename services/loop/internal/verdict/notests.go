package verdict

import (
	"fmt"
	"regexp"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// RuleNoTestsRan: a required test step finished OK but its runner said it
// found no tests. The project has tests (discovery planned the step for
// them, the maintainers' CI runs them), so greenlight's command missed
// them: a CMake option that builds the tests is off (yyjson's
// YYJSON_BUILD_TESTS), unittest's discovery started where no package
// leads to them (typing_extensions' src/). A PASS would vouch for code no
// test ran against, and an injected bug would pass too.
const RuleNoTestsRan = "no-tests-ran"

// zeroTestSignatures are runners saying they ran nothing: CTest, unittest,
// pytest, mocha, a TAP producer's plan, Jest with --passWithNoTests.
// go test's "no tests to run" is left out: it is said per package, of a
// benchmark-only package too.
var zeroTestSignatures = regexp.MustCompile(`(?m)No tests were found!!!|^Ran 0 tests in |collected 0 items|` +
	`^\s*0 passing \(|^# tests 0\s*$|^1\.\.0\s*$|No tests found, exiting with code 0`)

// noTestsRan makes a required test step that ran OK an ERROR when nothing
// was counted and its runner said it found no tests.
func noTestsRan(in StepInput) *glv1.StepResult {
	s, r, rep := in.Step, in.Result, in.Report
	if r.GetStatus() != glv1.StepStatus_STEP_STATUS_OK || s.GetOptional() || s.GetPhase() != glv1.Phase_PHASE_TEST {
		return r
	}
	if rep != nil && rep.Counts.Passed+rep.Counts.Failed+rep.Counts.Errors > 0 {
		return r
	}
	line := matchingLine(tailLines(r.GetTail(), recentLines), zeroTestSignatures)
	if line == "" {
		return r
	}
	out := proto.Clone(r).(*glv1.StepResult)
	out.Status = glv1.StepStatus_STEP_STATUS_ERROR
	out.Rule = RuleNoTestsRan
	out.Reason = fmt.Sprintf("the test step ran no tests (%q): its command found none of the project's tests, so nothing "+
		"was verified. Run them as the maintainers' CI does (greenlight.yaml `steps:`; a CMake option that builds the tests, "+
		"the directory unittest should start from)", line)
	return out
}
