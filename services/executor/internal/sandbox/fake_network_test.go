package sandbox_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/executor/internal/enginefake"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// Only install steps with network run attached to the egress network: a
// sandbox whose first step has none is detached before it starts, and the
// network is dropped again after the install phase.
func TestFakeNetworkOnlyForInstallSteps(t *testing.T) {
	f := newFake(t, nil)
	pem := "-----BEGIN CERTIFICATE-----\nfake\n-----END CERTIFICATE-----\n"
	req := f.request(fakeRunnerImage, nil,
		step("before", "echo offline"),
		sandbox.Step{Name: "install", Command: `cat "$SSL_CERT_FILE"`, Install: true, Network: true},
		step("test", "echo tested"))
	req.CABundle = []byte(pem)
	res, ev := f.run(context.Background(), req)
	if got := statuses(res); !slices.Equal(got, []sandbox.Status{sandbox.StatusOK, sandbox.StatusOK, sandbox.StatusOK}) {
		t.Fatalf("statuses = %v (%q)", got, res.Steps[1].Reason)
	}
	if out := ev.text(1, sandbox.StreamStdout); out != pem {
		t.Errorf("the install step's CA bundle = %q, want the request's", out)
	}
	procs := stepProcs(f.eng)
	for cmd, want := range map[string][]string{"echo offline": nil, `cat "$SSL_CERT_FILE"`: {"bridge"}, "echo tested": nil} {
		if got := procs[cmd].Networks; !slices.Equal(got, want) {
			t.Errorf("%q ran on networks %v, want %v", cmd, got, want)
		}
	}
	if s := f.eng.Specs()[0]; s.Network != "bridge" {
		t.Errorf("created on network %q, want bridge (so an install step can attach later)", s.Network)
	}
	var ops []string
	for _, c := range f.eng.Calls() {
		switch c.Op {
		case enginefake.OpCreate, enginefake.OpAttach, enginefake.OpStart, enginefake.OpConnect, enginefake.OpDisconnect:
			ops = append(ops, string(c.Op))
		}
	}
	want := "create attach disconnect start connect disconnect"
	if got := strings.Join(ops, " "); got != want {
		t.Errorf("engine calls %q, want %q", got, want)
	}
}

// A sandbox that cannot switch its network fails the step as an
// infrastructure error.
func TestFakeNetworkSwitchFails(t *testing.T) {
	f := newFake(t, nil)
	f.eng.FailOn(enginefake.OpConnect, errBoom)
	req := f.request(fakeRunnerImage, nil,
		step("before", "true"),
		sandbox.Step{Name: "install", Command: "true", Install: true, Network: true})
	res, _ := f.run(context.Background(), req)
	if res.Steps[1].Status != sandbox.StatusError || !strings.Contains(res.Steps[1].Reason, "switching the sandbox network: boom") {
		t.Errorf("install = %s (%q)", res.Steps[1].Status, res.Steps[1].Reason)
	}
}

// A pooled sandbox is attached to its network only when a step runs a
// command that needs it: an install step served by the dependency cache
// runs none, so a warm run never attaches (and never cuts) the network,
// while a cold run's install still runs attached.
func TestFakeNetworkOnlyWhenAnInstallRuns(t *testing.T) {
	f, pool := newFakePool(t, sandbox.WithDepCache(newMemCache()))
	install := installStep()
	install.Network = true
	req := func() sandbox.Request {
		return f.request(fakeRunnerImage, reqFiles, install, step("check", "cat deps/x"))
	}
	connects := func() int { return len(f.eng.CallsOf(enginefake.OpConnect)) }
	pool.Warm(enginefake.NewImage(fakeRunnerImage, true))
	waitFor(t, "the pool holds a container", func() bool { return pool.Idle(fakeRunnerImage) == 1 })
	res, _ := f.run(context.Background(), req())
	if res.Steps[0].CacheHit || res.Steps[0].Status != sandbox.StatusOK {
		t.Fatalf("cold run: install hit %v, %s (%q)", res.Steps[0].CacheHit, res.Steps[0].Status, res.Steps[0].Reason)
	}
	if got := stepProcs(f.eng)[install.Command].Networks; !slices.Equal(got, []string{"bridge"}) {
		t.Errorf("the cold install ran on networks %v, want [bridge]", got)
	}
	if connects() != 1 {
		t.Errorf("cold run: %d connects, want 1", connects())
	}
	waitFor(t, "the pool is ready again", func() bool { return pool.Idle(fakeRunnerImage) == 1 || pool.Staged(fakeRunnerImage) == 1 })
	res, ev := f.run(context.Background(), req())
	if !res.Steps[0].CacheHit || ev.text(1, sandbox.StreamStdout) != "dep\n" {
		t.Fatalf("warm run: install hit %v, check printed %q", res.Steps[0].CacheHit, ev.text(1, sandbox.StreamStdout))
	}
	if connects() != 1 {
		t.Errorf("warm run attached the network though no install command ran (%d connects in all)", connects())
	}
	if got := stepProcs(f.eng)["cat deps/x"].Networks; len(got) != 0 {
		t.Errorf("the check ran on networks %v, want none", got)
	}
}
