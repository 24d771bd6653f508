package verdict

import (
	"fmt"
	"regexp"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// RuleNeedsHostService: tests failed only because they talk to a service
// of the machine they run on (systemd's journal, D-Bus, syslog's /dev/log,
// a Docker engine): a CI runner is a full VM that has them, the sandbox is
// a container that must not, so the failure is the environment's.
const RuleNeedsHostService = "needs-host-service"

// hostServiceSignatures are how a missing host service shows in a test's
// message: its socket path (journald, D-Bus, syslog, Docker), or the
// client library's own words (sd-bus, the Docker CLI, Testcontainers).
var hostServiceSignatures = regexp.MustCompile(`/run/systemd/journal/(?:socket|stdout|dev-log)|/run/systemd/private|` +
	`/run/dbus/system_bus_socket|Failed to connect to (?:the )?bus|DBUS_SESSION_BUS_ADDRESS|` +
	`dial unix /dev/log|unix(?:gram)? /dev/log|/var/run/docker\.sock|Cannot connect to the Docker daemon|` +
	`Could not find a valid Docker environment|docker: command not found`)

// needsHostService makes a failed required test step an ERROR when every
// failed test's message shows a host service that is not there (and at
// least one test failed that way, none otherwise): those tests cannot pass
// in any container without the service, whatever the code does.
func needsHostService(in StepInput) *glv1.StepResult {
	s, r, rep := in.Step, in.Result, in.Report
	if r.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED || s.GetOptional() || s.GetPhase() == glv1.Phase_PHASE_INSTALL {
		return r
	}
	line, ok := onlyHostServiceFailures(rep)
	if !ok {
		return r
	}
	out := proto.Clone(r).(*glv1.StepResult)
	out.Status = glv1.StepStatus_STEP_STATUS_ERROR
	out.Rule = RuleNeedsHostService
	out.Reason = fmt.Sprintf("environment: the failed tests need a service of the host (%q), which a CI runner's VM has and the sandbox "+
		"does not provide; no test failed for another reason. Skip those tests outside CI or give them the service in the test itself", line)
	return out
}

// onlyHostServiceFailures reports whether every failed or errored test of
// the report failed on a missing host service (at least one did, none was
// left out of the report), with the first such line.
func onlyHostServiceFailures(rep *parse.StepReport) (string, bool) {
	if rep == nil || rep.Counts.Failed+rep.Counts.Errors == 0 || rep.FailuresOmitted > 0 {
		return "", false
	}
	first, seen, all := testFailures(rep, hostServiceSignatures)
	return first, all && seen > 0
}
