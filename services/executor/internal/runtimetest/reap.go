package runtimetest

import (
	"context"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// goneIdentity is an executor of this host that cannot be running: its
// pid is above the kernel's largest pid_max (2^22).
func goneIdentity() sandbox.Identity {
	self := sandbox.SelfIdentity()
	return sandbox.Identity{Host: self.Host, PID: 1<<22 + 1, PIDStart: "1"}
}

// testReapGoneExecutor: the containers of an executor that is gone (it
// was SIGKILLed) are found by their labels and removed by the sandbox's
// reaper on this driver, and those of a live executor are kept
// (ADVERSARIAL row 23).
func testReapGoneExecutor(t *testing.T, s *suite) {
	owner := testenv.Owner(t)
	self := sandbox.SelfIdentity()
	labelled := func(id sandbox.Identity) sandbox.ContainerSpec {
		spec := like(s.exec, owner)
		for k, v := range id.Labels() {
			spec.Labels[k] = v
		}
		return spec
	}
	stale := s.create(t, labelled(goneIdentity()))
	if err := s.h.Runtime.Start(context.Background(), stale); err != nil {
		t.Fatalf("Start: %v", err)
	}
	live := s.create(t, labelled(self))
	if n := len(testenv.Containers(t, s.h.Runtime, owner)); n != 2 {
		t.Fatalf("List by owner found %d containers, want 2", n)
	}
	removed, err := sandbox.NewReaper(s.h.Runtime, self, testenv.Logger(t)).Sweep(context.Background())
	if err != nil || removed < 1 {
		t.Errorf("Sweep = %d, %v; want at least the gone executor's container", removed, err)
	}
	// Every executor's reaper sweeps every greenlight container, so one of
	// a concurrent test process may be removing the stale one already (our
	// Remove then reports success: "removal already in progress"): allow
	// the removal a few seconds to finish.
	var left []sandbox.ContainerInfo
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		left = testenv.Containers(t, s.h.Runtime, owner)
		if (len(left) == 1 && left[0].ID == live) || time.Now().After(end) {
			break
		}
	}
	if len(left) != 1 || left[0].ID != live {
		t.Errorf("after the sweep %+v remain; want only the live executor's %s", left, live)
	}
}
