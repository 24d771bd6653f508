package executorsvc

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.uber.org/zap/zaptest"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/executor/internal/egress"
	"github.com/greenlight-dev/greenlight/services/executor/internal/enginefake"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// The egress tests without an engine or root: fakeEgress stands in for
// the host's iptables and the engine's networks (the same paths on a real
// host are egress_*_test.go).

// install is an install step with network whose command is cmd.
func install(cmd string) *glv1.Step {
	return &glv1.Step{Name: "install", Phase: glv1.Phase_PHASE_INSTALL, Network: true, Command: cmd}
}

// stepNetworks returns the networks the step process running cmd was on.
func stepNetworks(t *testing.T, eng *enginefake.Engine, cmd string) []string {
	t.Helper()
	for _, p := range eng.Procs() {
		if n := len(p.Argv); n > 1 && p.Argv[n-1] == cmd {
			return p.Networks
		}
	}
	t.Fatalf("no step process ran %q", cmd)
	return nil
}

// newEngine is a fake engine closed when the test ends.
func newEngine(t *testing.T) *enginefake.Engine {
	t.Helper()
	eng, err := enginefake.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.Close() })
	return eng
}

// With the policy required, the instance is applied when the service
// starts (its allow-list parsed, the process's labels as owner), install
// steps run on its network, and Close removes it.
func TestFakeEgressAppliedAtStartRemovedAtClose(t *testing.T) {
	host := &fakeEgress{}
	e := newFakeEnvEgress(t, host, func(c *Config) {
		c.EgressPolicy, c.EgressInstance, c.EgressAllow = EgressIptables, "tstart", []string{"10.1.2.3", "192.168.0.0/16"}
	})
	in := egress.Instance{ID: "tstart"}
	if got := e.svc.runner.Config().EgressNetwork; got != in.Network() {
		t.Fatalf("install steps use %q, want %s", got, in.Network())
	}
	applied, policies, owners, _ := host.record()
	if len(applied) != 1 || applied[0] != in {
		t.Fatalf("applied %v, want [%v]", applied, in)
	}
	want := []netip.Prefix{netip.MustParsePrefix("10.1.2.3/32"), netip.MustParsePrefix("192.168.0.0/16")}
	if got := policies[0].Allow; !slices.Equal(got, want) {
		t.Errorf("policy allows %v, want %v", got, want)
	}
	owner := owners[0]
	if owner.Labels[sandbox.LabelHost] == "" || !owner.Alive(owner.Labels) {
		t.Errorf("owner labels %v must name this live process", owner.Labels)
	}

	r := e.mustExecute(context.Background(), e.request(nil, install("echo on-egress"), sh("test", "echo offline")))
	if st := statusOf(r.result(0)); st != "OK" {
		t.Fatalf("install step %s: %s", st, r.result(0).GetReason())
	}
	if got := stepNetworks(t, e.eng, "echo on-egress"); !slices.Equal(got, []string{in.Network()}) {
		t.Errorf("the install step ran on %v, want the instance's network", got)
	}
	if got := stepNetworks(t, e.eng, "echo offline"); len(got) != 0 {
		t.Errorf("the test step ran on %v, want none", got)
	}
	if _, removed := host.counts(); removed != 0 {
		t.Fatalf("removed before Close")
	}
	if err := e.svc.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, _, removed := host.record(); len(removed) != 1 || removed[0] != in {
		t.Errorf("Close removed %v, want [%v]", removed, in)
	}
}

// Services of one process with the same policy share one instance: it is
// applied once and removed when the last of them closes. Another policy
// on the same instance is refused, naming the flag that separates them.
func TestFakeEgressSharedInstance(t *testing.T) {
	host := &fakeEgress{}
	policy := func(c *Config) { c.EgressPolicy, c.EgressInstance = EgressIptables, "tshared" }
	a := newFakeEnvEgress(t, host, policy)
	cfg := testConfig(t)
	policy(&cfg)
	b, err := newService(cfg, a.blobs, zaptest.NewLogger(t), a.eng, host, nil)
	if err != nil {
		t.Fatal(err)
	}
	if applied, _ := host.counts(); applied != 1 {
		t.Errorf("%d applies for one shared instance", applied)
	}
	cfg.EgressAllow = []string{"10.9.9.9"}
	if _, err := newService(cfg, a.blobs, zaptest.NewLogger(t), a.eng, host, nil); !errors.Is(err, egress.ErrInUse) ||
		!strings.Contains(err.Error(), "--egress-instance") {
		t.Errorf("another policy on the same instance: %v, want ErrInUse naming --egress-instance", err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, removed := host.counts(); removed != 0 {
		t.Fatalf("the instance was removed while a service still uses it")
	}
	if err := a.svc.Close(); err != nil {
		t.Fatal(err)
	}
	if _, removed := host.counts(); removed != 1 {
		t.Errorf("%d removals after the last service closed, want 1", removed)
	}
}

// A host that cannot filter: with the policy required the executor does
// not start (the error says why); in auto mode install steps get
// EgressNetwork and nothing is removed at Close.
func TestFakeEgressUnavailable(t *testing.T) {
	unavailable := fmt.Errorf("%w: no iptables", egress.ErrUnavailable)

	host := &fakeEgress{applyErr: unavailable}
	cfg := testConfig(t)
	cfg.EgressPolicy, cfg.EgressInstance = EgressIptables, "tunavail"
	_, err := newService(cfg, testenv.Blobs(t), zaptest.NewLogger(t), newEngine(t), host, nil)
	if !errors.Is(err, egress.ErrUnavailable) || !strings.Contains(err.Error(), "egress policy") {
		t.Fatalf("required policy on a host that cannot filter: %v", err)
	}

	e := newFakeEnvEgress(t, host, func(c *Config) { c.EgressPolicy, c.EgressInstance = EgressAuto, "tunavail" })
	if got := e.svc.runner.Config().EgressNetwork; got != "bridge" {
		t.Fatalf("auto mode fell back to %q, want EgressNetwork (bridge)", got)
	}
	r := e.mustExecute(context.Background(), e.request(nil, install("echo unfiltered")))
	if got := stepNetworks(t, e.eng, "echo unfiltered"); !slices.Equal(got, []string{"bridge"}) {
		t.Errorf("install ran on %v, want [bridge] (status %s)", got, statusOf(r.result(0)))
	}
	if err := e.svc.Close(); err != nil {
		t.Fatal(err)
	}
	if _, removed := host.counts(); removed != 0 {
		t.Errorf("a fallback instance was removed %d times; nothing was created", removed)
	}
}

// An engine that does not answer while the service starts: the service
// starts all the same, install steps fail until the instance exists
// (never running unfiltered), and Close stops retrying and removes what
// the attempt may have left.
func TestFakeEgressEngineNotAnsweringAtStart(t *testing.T) {
	host := &fakeEgress{applyErr: errors.New("engine not answering")}
	e := newFakeEnvEgress(t, host, func(c *Config) { c.EgressPolicy, c.EgressInstance = EgressIptables, "tlate" })
	if got, want := e.svc.runner.Config().EgressNetwork, (egress.Instance{ID: "tlate"}).Network(); got != want {
		t.Fatalf("install steps use %q, want %s", got, want)
	}
	r := e.mustExecute(context.Background(), e.request(nil, install("echo must-not-run")))
	if st := statusOf(r.result(0)); st != "ERROR" {
		t.Errorf("install step without its filter: %s, want ERROR", st)
	}
	for _, p := range e.eng.Procs() {
		if slices.Contains(p.Argv, "echo must-not-run") {
			t.Fatalf("the install step ran without its egress instance: %v", p)
		}
	}
	if err := e.svc.Close(); err != nil {
		t.Fatal(err)
	}
	if _, removed := host.counts(); removed != 1 {
		t.Errorf("%d removals after a failed attempt, want 1", removed)
	}
}

// The periodic sweep removes dead executors' instances and keeps this
// process's own.
func TestFakeEgressSweepsDeadExecutors(t *testing.T) {
	dead := sandbox.SelfIdentity()
	dead.PID, dead.PIDStart = 1, "0"
	label := func(id sandbox.Identity, instance string) map[string]string {
		l := id.Labels()
		l[egress.LabelInstance] = instance
		return l
	}
	host := &fakeEgress{nets: []map[string]string{label(dead, "tdead"), label(sandbox.SelfIdentity(), "tlive")}}
	newFakeEnvEgress(t, host, func(c *Config) { c.EgressPolicy, c.EgressInstance = EgressIptables, "tsweep" })
	// Applying the instance sweeps first; the reaper's loop sweeps again.
	waitUntil(t, "the reaper's sweep", func() bool { n, _ := host.sweepCount(); return n >= 2 })
	if _, swept := host.sweepCount(); !slices.Equal(swept, []string{"tdead"}) {
		t.Errorf("swept %v, want only the dead executor's [tdead]", swept)
	}
}

// Without an instance id in the configuration each process and policy
// gets its own valid one; a malformed allow-list entry is refused naming
// the flag.
func TestEgressInstanceAndAllowList(t *testing.T) {
	self := sandbox.SelfIdentity()
	var c Config
	p1 := egress.Policy{}
	p2 := egress.Policy{Allow: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}
	id1, id2 := c.egressInstance(self, p1), c.egressInstance(self, p2)
	if !regexp.MustCompile(`^e[0-9a-f]{10}$`).MatchString(id1) || egress.ValidateInstance(id1) != nil {
		t.Errorf("derived instance %q is not a valid id", id1)
	}
	if id1 == id2 || id1 != c.egressInstance(self, p1) {
		t.Errorf("instances %q, %q: one per policy, stable", id1, id2)
	}
	other := self
	other.PID++
	if c.egressInstance(other, p1) == id1 {
		t.Errorf("another process got the same instance %q", id1)
	}
	c.EgressInstance = "mine"
	if got := c.egressInstance(self, p1); got != "mine" {
		t.Errorf("configured instance ignored: %q", got)
	}

	for _, tc := range []struct {
		entry string
		ok    bool
	}{{"10.1.2.3", true}, {"172.16.0.0/12", true}, {"::1", false}, {"10.0.0.0/40", false}, {"proxy.corp", false}} {
		cfg := testConfig(t)
		cfg.EgressAllow = []string{tc.entry}
		err := cfg.Validate()
		if tc.ok != (err == nil) || (err != nil && !strings.Contains(err.Error(), "egress-allow")) {
			t.Errorf("egress-allow %q: %v", tc.entry, err)
		}
	}
}
