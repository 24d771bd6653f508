package executorsvc

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/executor/internal/egress"
	"github.com/greenlight-dev/greenlight/services/executor/internal/enginefake"
)

// On demand, nothing is applied until an install step needs the network:
// runs without one leave the host untouched, the first install step gets
// the filter before its container exists, later ones reuse it, and Close
// removes what was created.
func TestFakeEgressOnDemand(t *testing.T) {
	host := &fakeEgress{}
	e := newFakeEnvEgress(t, host, func(c *Config) {
		c.EgressPolicy, c.EgressOnDemand, c.EgressInstance = EgressIptables, true, "tdemand"
	})
	in := egress.Instance{ID: "tdemand"}
	if got := e.svc.runner.Config().EgressNetwork; got != in.Network() {
		t.Fatalf("install steps would use %q, want %s", got, in.Network())
	}
	ctx := context.Background()
	e.mustExecute(ctx, e.request(nil, sh("test", "echo offline")))
	if applied, _ := host.counts(); applied != 0 {
		t.Fatalf("a run without network applied the instance")
	}
	// Connect (the sandbox starts without network), then Create on the
	// network (the first step needs it).
	for i, installFirst := range []bool{false, true} {
		inst, test := fmt.Sprintf("echo install %d", i), fmt.Sprintf("echo test %d", i)
		steps := []*glv1.Step{sh("test", test), install(inst)}
		if installFirst {
			steps[0], steps[1] = steps[1], steps[0]
		}
		r := e.mustExecute(ctx, e.request(nil, steps...))
		for j := range steps {
			if st := statusOf(r.result(j)); st != "OK" {
				t.Fatalf("run %d step %d: %s %s", i, j, st, r.result(j).GetReason())
			}
		}
		if got := stepNetworks(t, e.eng, inst); !slices.Equal(got, []string{in.Network()}) {
			t.Errorf("run %d: install ran on %v, want the instance's network", i, got)
		}
		if got := stepNetworks(t, e.eng, test); len(got) != 0 {
			t.Errorf("run %d: test ran on %v, want none", i, got)
		}
	}
	if applied, _ := host.counts(); applied != 1 {
		t.Errorf("applied %d times, want once", applied)
	}
	if err := e.svc.Close(); err != nil {
		t.Fatal(err)
	}
	if _, removed := host.counts(); removed != 1 {
		t.Errorf("%d removals at Close, want 1", removed)
	}
}

// On demand, an executor no install step needed creates and removes
// nothing.
func TestFakeEgressOnDemandUnused(t *testing.T) {
	host := &fakeEgress{}
	e := newFakeEnvEgress(t, host, func(c *Config) {
		c.EgressPolicy, c.EgressOnDemand, c.EgressInstance = EgressIptables, true, "tunused"
	})
	if err := e.svc.Close(); err != nil {
		t.Fatal(err)
	}
	if applied, removed := host.counts(); applied != 0 || removed != 0 {
		t.Errorf("applied %d, removed %d; want nothing", applied, removed)
	}
}

// On demand, a failure to apply fails that sandbox's install step with
// the reason (never running it unfiltered); the next run tries again.
func TestFakeEgressOnDemandApplyFails(t *testing.T) {
	host := &fakeEgress{applyErr: errors.New("iptables: resource busy")}
	e := newFakeEnvEgress(t, host, func(c *Config) {
		c.EgressPolicy, c.EgressOnDemand, c.EgressInstance = EgressIptables, true, "tfails"
	})
	ctx := context.Background()
	r := e.mustExecute(ctx, e.request(nil, install("echo first")))
	if st, reason := statusOf(r.result(0)), r.result(0).GetReason(); st != "ERROR" ||
		!strings.Contains(reason, "egress policy") || !strings.Contains(reason, "resource busy") {
		t.Errorf("install step when the filter cannot be applied: %s %q", st, reason)
	}
	if n := len(e.eng.Procs()); n != 0 {
		t.Errorf("%d processes ran without the filter", n)
	}
	host.fail(nil)
	r = e.mustExecute(ctx, e.request(nil, install("echo second")))
	if st := statusOf(r.result(0)); st != "OK" {
		t.Errorf("after the host recovered: %s %s", st, r.result(0).GetReason())
	}
	if applied, _ := host.counts(); applied != 2 {
		t.Errorf("applied %d times, want 2 (the failure, then the retry)", applied)
	}
}

// On demand in auto mode on a host that cannot filter, install steps get
// EgressNetwork: created on it, connected to it and detached from it (not
// from the instance's network, which does not exist). On the host
// network the net.* sysctls are dropped (the engine refuses them there).
func TestFakeEgressOnDemandFallback(t *testing.T) {
	for _, network := range []string{"bridge", "host"} {
		t.Run(network, func(t *testing.T) {
			host := &fakeEgress{applyErr: errors.Join(egress.ErrUnavailable, errors.New("no iptables"))}
			e := newFakeEnvEgress(t, host, func(c *Config) {
				c.EgressPolicy, c.EgressOnDemand, c.EgressInstance = EgressAuto, true, "tfb"+network[:1]
				c.EgressNetwork, c.IPv6Loopback = network, true
			})
			r := e.mustExecute(context.Background(), e.request(nil,
				sh("before", "echo before"), install("echo installing"), sh("after", "echo after")))
			for i := range 3 {
				if st := statusOf(r.result(i)); st != "OK" {
					t.Fatalf("step %d: %s %s", i, st, r.result(i).GetReason())
				}
			}
			if got := stepNetworks(t, e.eng, "echo installing"); !slices.Equal(got, []string{network}) {
				t.Errorf("install ran on %v, want [%s]", got, network)
			}
			if got := stepNetworks(t, e.eng, "echo after"); len(got) != 0 {
				t.Errorf("the step after install ran on %v, want none", got)
			}
			spec := e.eng.Specs()[0]
			if spec.Network != network || (network == "host") != (spec.Sysctls == nil) {
				t.Errorf("created on %q with sysctls %v", spec.Network, spec.Sysctls)
			}
			if err := e.svc.Close(); err != nil {
				t.Fatal(err)
			}
			if _, removed := host.counts(); removed != 0 {
				t.Errorf("a fallback was removed %d times", removed)
			}
		})
	}
}

// The on-demand wrapper still lets the service pull (--images upstream)
// through the runtime it wraps, and says so when that runtime cannot.
func TestEgressRuntimePull(t *testing.T) {
	eng := newEngine(t)
	eng.AddRemote(enginefake.NewImage("python:3.12", false))
	e := &egressSetup{in: egress.Instance{ID: "tpull"}}
	if err := (egressRuntime{Runtime: eng, e: e}).Pull(context.Background(), "python:3.12"); err != nil {
		t.Errorf("pull through the wrapper: %v", err)
	}
	if _, err := eng.Image(context.Background(), "python:3.12"); err != nil {
		t.Errorf("the pulled image is not on the engine: %v", err)
	}
	noPull := &countingRuntime{Runtime: eng} // only sandbox.Runtime's methods
	if err := (egressRuntime{Runtime: noPull, e: e}).Pull(context.Background(), "python:3.12"); err == nil ||
		!strings.Contains(err.Error(), "cannot pull") {
		t.Errorf("pull on a runtime without Pull: %v", err)
	}
}
