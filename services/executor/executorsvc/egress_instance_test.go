package executorsvc

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/egress"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// iptablesS prints a chain (or the whole filter table for ""), "" when
// it does not exist.
func iptablesS(t *testing.T, chain string) string {
	t.Helper()
	args := []string{"-w", "5", "-S"}
	if chain != "" {
		args = append(args, chain)
	}
	out, err := exec.Command("iptables", args...).CombinedOutput()
	if err != nil && chain == "" {
		t.Fatalf("iptables -S: %v: %s", err, out)
	}
	if err != nil {
		return ""
	}
	return string(out)
}

// Two executors with different egress policies side by side each get
// their own network, bridge and chains: one's --egress-allow is not in the
// chain that filters the other's install steps, and closing one removes
// its instance and leaves the other's in place.
func TestEgressPoliciesSideBySideAreSeparate(t *testing.T) {
	const allowed = "10.123.45.67/32"
	a := newEnv(t, func(c *Config) { c.EgressPolicy, c.EgressAllow = EgressIptables, []string{allowed} })
	b := newEnv(t, func(c *Config) { c.EgressPolicy = EgressIptables })
	na, nb := a.svc.runner.Config().EgressNetwork, b.svc.runner.Config().EgressNetwork
	if na == nb {
		t.Fatalf("both executors use network %s", na)
	}
	ia := egress.Instance{ID: strings.TrimPrefix(na, "greenlight-egress-")}
	ib := egress.Instance{ID: strings.TrimPrefix(nb, "greenlight-egress-")}
	rule := "-d " + allowed + " -j RETURN"
	if ca, cb := iptablesS(t, ia.ChainOut()), iptablesS(t, ib.ChainOut()); !strings.Contains(ca, rule) || strings.Contains(cb, rule) || cb == "" {
		t.Errorf("a's allow rule must be in a's chain only:\n%s\n%s", ca, cb)
	}
	user := iptablesS(t, "DOCKER-USER")
	for _, in := range []egress.Instance{ia, ib} {
		if !strings.Contains(user, "-i "+in.Bridge()+" -j "+in.ChainOut()+"\n") {
			t.Errorf("DOCKER-USER has no jump from %s to %s:\n%s", in.Bridge(), in.ChainOut(), user)
		}
	}
	if err := a.svc.Close(); err != nil {
		t.Fatal(err)
	}
	all := iptablesS(t, "")
	if strings.Contains(all, ia.ChainOut()) || strings.Contains(all, ia.ChainIn()) || !strings.Contains(all, ib.ChainOut()) {
		t.Errorf("after closing a, its chains must be gone and b's kept:\n%s", all)
	}
	if labels, _ := testenvDocker(t).NetworkLabels(context.Background(), egress.LabelInstance+"="+ia.ID); len(labels) != 0 {
		t.Errorf("a's network survived its Close: %v", labels)
	}
}

// An explicit instance another live executor owns is refused with a clear
// error; an instance whose executor died (SIGKILLed: nothing removed it)
// is swept by the next executor on the host.
func TestEgressInstanceOwnership(t *testing.T) {
	docker := testenvDocker(t)
	ctx := context.Background()
	// A dead executor's instance: pid 1's start time never matches.
	dead := egress.Instance{ID: fmt.Sprintf("t%010x", time.Now().UnixNano()&0xffffffffff)}
	owner := sandbox.SelfIdentity()
	owner.PID, owner.PIDStart = 1, "0"
	err := egress.Apply(ctx, docker, egress.SystemIptables, dead, egress.Policy{},
		egress.Owner{Labels: owner.Labels(), Alive: func(map[string]string) bool { return true }})
	if err != nil {
		t.Fatalf("setting up a dead executor's instance: %v", err)
	}
	t.Cleanup(func() { _ = egress.Remove(ctx, docker, egress.SystemIptables, dead) })

	live := newEnv(t, func(c *Config) { c.EgressPolicy = EgressIptables })
	if labels, _ := docker.NetworkLabels(ctx, egress.LabelInstance+"="+dead.ID); len(labels) != 0 || iptablesS(t, dead.ChainOut()) != "" {
		t.Errorf("the dead executor's instance was not swept: %v", labels)
	}
	id := strings.TrimPrefix(live.svc.runner.Config().EgressNetwork, "greenlight-egress-")
	_, err = newService(func() Config {
		c := testConfig(t)
		c.EgressPolicy, c.EgressInstance, c.EgressAllow = EgressIptables, id, []string{"10.1.1.1"}
		return c
	}(), live.blobs, live.svc.log, live.rt, hostEgress{nets: docker}, nil)
	// The same process owns it here, so a different policy is what
	// differs; another process would be refused the same way.
	if err == nil || !strings.Contains(err.Error(), "--egress-instance") {
		t.Errorf("a second executor on instance %s with another policy: %v", id, err)
	}
}
