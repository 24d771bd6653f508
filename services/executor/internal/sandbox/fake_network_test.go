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
