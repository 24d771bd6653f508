package runtimetest

import (
	"context"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// Harness is what a driver's test gives the suite.
type Harness struct {
	// Runtime is the driver under test.
	Runtime sandbox.Runtime
	// Image is a local image the driver runs without pulling: it has
	// /bin/sh with the usual tools, the sandbox user (uid 10001) and
	// greenlight-runner (runnerproto.LabelRunner), which the attach case
	// talks to.
	Image string
	// Isolates says the driver enforces what the spec asks of the kernel
	// (user, read-only root, capabilities, seccomp, limits, network), so
	// the probes from inside a container run. The fake records the spec
	// and enforces none of it.
	Isolates bool
	// Applied, when set, reads back what the engine applied to a
	// container, so the hardening is also checked after the driver's
	// mapping; nil checks only the spec the driver received.
	Applied func(ctx context.Context, id string) (Applied, error)
	// KnownGaps names checks the driver is known to fail ("case/check",
	// as the failure message names them: "isolation/only-loopback",
	// "hardened-spec/exec/applied/pids-limit") with why: the check still runs,
	// is logged while it fails and fails the suite once it passes, so
	// that the gap is dropped from here when the driver is fixed.
	KnownGaps map[string]string
}

// Applied is a container's configuration as the engine reports it.
type Applied struct {
	// Spec is the configuration in the sandbox's terms (Network "" for a
	// container without any network, like ContainerSpec).
	Spec sandbox.ContainerSpec
	// HostPaths are the host paths mounted into the container (bind
	// mounts, host-path volumes). A ContainerSpec cannot ask for one; an
	// engine or driver must not add one either.
	HostPaths []string
	// Privileged says the container runs privileged.
	Privileged bool
}

// suite is one Run: the harness and the production specs recorded on it.
type suite struct {
	h Harness
	// exec is the spec of a sandbox whose steps are exec'd (keepalive main
	// process); runner that of one whose main process is greenlight-runner.
	exec, runner sandbox.ContainerSpec
}

// Run runs every conformance case on h's driver as subtests of t.
func Run(t *testing.T, h Harness) {
	t.Helper()
	if h.Runtime == nil || h.Image == "" {
		t.Fatal("runtimetest: the harness needs a Runtime and an Image")
	}
	s := &suite{h: h}
	s.exec, s.runner = captureSpecs(t, h)
	cases := []struct {
		name string
		run  func(t *testing.T, s *suite)
	}{
		{"hardened-spec", testHardenedSpec},
		{"engine", testEngine},
		{"lifecycle", testLifecycle},
		{"exec-stdin-failure", testExecStdinFailure},
		{"attach-runner", testAttachRunner},
		{"list-by-owner", testListByOwner},
		{"missing-objects", testMissingObjects},
		{"exec-canceled", testExecCanceled},
		{"reap-gone-executor", testReapGoneExecutor},
		{"isolation", testIsolation},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.run(t, s) })
	}
}

// expect fails t with msg unless ok, honouring the harness's known gaps:
// check names the check within the case running t.
func (s *suite) expect(t *testing.T, check string, ok bool, msg string) {
	t.Helper()
	name := caseName(t) + "/" + check
	why, gap := s.h.KnownGaps[name]
	switch {
	case gap && ok:
		t.Errorf("%s passes now: drop it from the harness's KnownGaps (%s)", name, why)
	case gap:
		t.Logf("known gap %s (%s): %s", name, why, msg)
	case !ok:
		t.Errorf("%s: %s", name, msg)
	}
}

// expectAll reports each problem as a failed check named prefix+check,
// and each known gap under that prefix that is not among them as passing
// (so a fixed gap is dropped from the harness).
func (s *suite) expectAll(t *testing.T, prefix string, problems []problem) {
	t.Helper()
	failed := map[string]string{}
	for _, p := range problems {
		failed[prefix+p.check] += p.msg + "; "
	}
	for check, msg := range failed {
		s.expect(t, check, false, strings.TrimSuffix(msg, "; "))
	}
	for gap := range s.h.KnownGaps {
		check, ok := strings.CutPrefix(gap, caseName(t)+"/")
		if _, seen := failed[check]; ok && strings.HasPrefix(check, prefix) && !seen {
			s.expect(t, check, true, "")
		}
	}
}

// caseName is the suite's case t runs under (the subtest below Run's).
func caseName(t *testing.T) string {
	parts := strings.Split(t.Name(), "/")
	if len(parts) < 2 {
		return t.Name()
	}
	return parts[1]
}
