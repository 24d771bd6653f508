package verdict

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// RuleNeedsNetwork: a step without network (every step but installs)
// failed because something in it tried to reach the network: the
// maintainers' CI has a network, the sandbox gives it to installs only,
// so the failure is the environment's, not the code's (npm's `posttest`
// running `npm audit`, a test downloading a fixture).
const RuleNeedsNetwork = "needs-network"

// needsNetwork makes a failed required step without network an ERROR when
// its log shows a name that did not resolve or a network that could not
// be reached, and no test failed for another reason: every failed test's
// message is such a failure too, or none failed (the command failed after
// the tests, in a hook). A test that fails on anything else keeps the step
// FAILED: the code is wrong whatever else happened.
func needsNetwork(in StepInput) *glv1.StepResult {
	s, r, rep := in.Step, in.Result, in.Report
	if r.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED || s.GetNetwork() || s.GetOptional() ||
		s.GetPhase() == glv1.Phase_PHASE_INSTALL {
		return r
	}
	line := matchingLine(tailLines(r.GetTail(), recentLines), unreachableSignatures)
	if line == "" || !onlyNetworkFailures(rep) {
		return r
	}
	out := proto.Clone(r).(*glv1.StepResult)
	out.Status = glv1.StepStatus_STEP_STATUS_ERROR
	out.Rule = RuleNeedsNetwork
	out.Reason = fmt.Sprintf("environment: the step tried to reach the network (%q), which the sandbox gives only to install steps; "+
		"no test failed for another reason. If a script hook does it (npm's pretest/posttest), run the test command the CI runs "+
		"(greenlight.yaml `steps:`); if the tests need a service, give them a local one", line)
	return out
}

// onlyNetworkFailures reports whether every failed or errored test of the
// report failed on an unreachable network (true when none failed).
func onlyNetworkFailures(rep *parse.StepReport) bool {
	if rep == nil || rep.Counts.Failed+rep.Counts.Errors == 0 {
		return true
	}
	_, seen, all := testFailures(rep, unreachableSignatures)
	return all && seen > 0 && rep.FailuresOmitted == 0
}
