package egress

import (
	"context"
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakeIptables keeps chains in memory and records the commands it ran.
type fakeIptables struct {
	chains map[string][]string
	calls  []string
}

func (f *fakeIptables) run(_ context.Context, args ...string) (string, error) {
	f.calls = append(f.calls, strings.Join(args, " "))
	op, chain, rest := args[0], args[1], strings.Join(args[2:], " ")
	rules, ok := f.chains[chain]
	switch op {
	case "-S":
		if !ok {
			return "", errors.New("no chain")
		}
		out := []string{"-N " + chain}
		for _, r := range rules {
			out = append(out, "-A "+chain+" "+r)
		}
		return strings.Join(out, "\n") + "\n", nil
	case "-N":
		f.chains[chain] = nil
	case "-F":
		f.chains[chain] = nil
	case "-A":
		f.chains[chain] = append(rules, rest)
	case "-I":
		f.chains[chain] = append([]string{strings.Join(args[3:], " ")}, rules...)
	case "-C":
		if !slices.Contains(rules, rest) {
			return "", errors.New("no rule")
		}
	case "-D":
		i := slices.Index(rules, rest)
		if i < 0 {
			return "", errors.New("no rule")
		}
		f.chains[chain] = slices.Delete(rules, i, i+1)
	case "-X":
		delete(f.chains, chain)
	}
	return "", nil
}

// fakeNets keeps networks' labels in memory.
type fakeNets struct{ nets map[string]map[string]string }

func (n *fakeNets) EnsureNetwork(_ context.Context, name string, _, labels map[string]string) (map[string]string, error) {
	if n.nets == nil {
		n.nets = map[string]map[string]string{}
	}
	if got, ok := n.nets[name]; ok {
		return got, nil
	}
	n.nets[name] = labels
	return labels, nil
}

func (n *fakeNets) RemoveNetwork(_ context.Context, name string) error {
	delete(n.nets, name)
	return nil
}

func (n *fakeNets) NetworkLabels(_ context.Context, label string) ([]map[string]string, error) {
	var out []map[string]string
	for _, l := range n.nets {
		if _, ok := l[label]; ok {
			out = append(out, l)
		}
	}
	return out, nil
}

// owner is a test owner: pid 1 is alive, every other pid is dead.
func owner(pid string) Owner {
	return Owner{Labels: map[string]string{"pid": pid}, Alive: func(l map[string]string) bool { return l["pid"] == "1" }}
}

func TestApplyIsIdempotent(t *testing.T) {
	f := &fakeIptables{chains: map[string][]string{"DOCKER-USER": {"-j RETURN"}, "INPUT": nil}}
	p := Policy{Allow: []netip.Prefix{netip.MustParsePrefix("10.9.8.7/32")}, Resolvers: []netip.Addr{netip.MustParseAddr("10.0.0.2")}}
	nets := &fakeNets{}
	in := Instance{ID: "a1"}
	if err := Apply(context.Background(), nets, f.run, in, p, owner("1")); err != nil {
		t.Fatal(err)
	}
	out := f.chains["GL-EGRESS-a1"]
	allow := slices.Index(out, "-d 10.9.8.7/32 -j RETURN")
	block := slices.Index(out, "-d 10.0.0.0/8 -j REJECT --reject-with icmp-port-unreachable")
	dns := slices.Index(out, "-d 10.0.0.2/32 -p udp -m udp --dport 53 -j RETURN")
	if allow < 0 || block < 0 || dns < 0 || allow > block || dns > block || out[len(out)-1] != "-j RETURN" {
		t.Errorf("rules out of order: %q", out)
	}
	if got := f.chains["DOCKER-USER"]; got[0] != "-i gl-a1 -j GL-EGRESS-a1" || len(got) != 2 {
		t.Errorf("DOCKER-USER = %q", got)
	}
	if got := f.chains["INPUT"]; len(got) != 1 || got[0] != "-i gl-a1 -j GL-EGRESS-IN-a1" {
		t.Errorf("INPUT = %q", got)
	}
	f.calls = nil
	if err := Apply(context.Background(), nets, f.run, in, p, owner("1")); err != nil {
		t.Fatal(err)
	}
	for _, c := range f.calls {
		if !strings.HasPrefix(c, "-S") && !strings.HasPrefix(c, "-C") {
			t.Errorf("a second Apply changed something: %s", c)
		}
	}
}

func TestResolvers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "resolv.conf")
	_ = os.WriteFile(path, []byte("# c\nnameserver 10.0.0.2\nnameserver 127.0.0.53\nnameserver ::1\nsearch x\n"), 0o644)
	if got := Resolvers(path); len(got) != 1 || got[0].String() != "10.0.0.2" {
		t.Errorf("Resolvers = %v", got)
	}
}

// Two instances side by side keep their own chains: one's allow list is
// not in the other's chain, and Remove takes one away without touching the
// other.
func TestInstancesAreSeparate(t *testing.T) {
	f := &fakeIptables{chains: map[string][]string{"DOCKER-USER": {"-j RETURN"}, "INPUT": nil}}
	nets := &fakeNets{}
	ctx := context.Background()
	a, b := Instance{ID: "a"}, Instance{ID: "b"}
	pa := Policy{Allow: []netip.Prefix{netip.MustParsePrefix("10.9.8.7/32")}}
	if err := Apply(ctx, nets, f.run, a, pa, owner("1")); err != nil {
		t.Fatal(err)
	}
	if err := Apply(ctx, nets, f.run, b, Policy{}, owner("1")); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(f.chains["GL-EGRESS-a"], "-d 10.9.8.7/32 -j RETURN") || slices.Contains(f.chains["GL-EGRESS-b"], "-d 10.9.8.7/32 -j RETURN") {
		t.Errorf("allow rules: a %q, b %q", f.chains["GL-EGRESS-a"], f.chains["GL-EGRESS-b"])
	}
	if err := Remove(ctx, nets, f.run, a); err != nil {
		t.Fatal(err)
	}
	if _, ok := f.chains["GL-EGRESS-a"]; ok || nets.nets[a.Network()] != nil {
		t.Errorf("a not removed: %q %v", f.chains, nets.nets)
	}
	if got := f.chains["DOCKER-USER"]; !slices.Equal(got, []string{"-i gl-b -j GL-EGRESS-b", "-j RETURN"}) {
		t.Errorf("DOCKER-USER after removing a = %q", got)
	}
}

// An instance owned by another live process is refused; one whose owner
// died is taken over, and Sweep removes dead owners' instances.
func TestOwnership(t *testing.T) {
	f := &fakeIptables{chains: map[string][]string{"DOCKER-USER": nil, "INPUT": nil}}
	nets := &fakeNets{}
	ctx := context.Background()
	in := Instance{ID: "x"}
	if err := Apply(ctx, nets, f.run, in, Policy{}, owner("1")); err != nil {
		t.Fatal(err)
	}
	err := Apply(ctx, nets, f.run, in, Policy{}, owner("2"))
	if !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), "--egress-instance") {
		t.Errorf("second owner: %v", err)
	}
	nets.nets[in.Network()]["pid"] = "3" // its owner died
	if err := Apply(ctx, nets, f.run, in, Policy{}, owner("2")); err != nil || nets.nets[in.Network()]["pid"] != "2" {
		t.Errorf("taking over a dead owner's instance: %v %v", err, nets.nets)
	}
	swept, err := Sweep(ctx, nets, f.run, func(l map[string]string) bool { return l["pid"] != "1" })
	if err != nil || !slices.Equal(swept, []string{"x"}) || len(nets.nets) != 0 {
		t.Errorf("Sweep = %v %v, left %v", swept, err, nets.nets)
	}
	if err := ValidateInstance("Bad-ID"); err == nil {
		t.Error("an upper-case id was accepted")
	}
}
