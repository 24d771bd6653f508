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
	}
	return "", nil
}

type fakeNets struct{ created int }

func (n *fakeNets) EnsureNetwork(context.Context, string, map[string]string, map[string]string) error {
	n.created++
	return nil
}

func TestApplyIsIdempotent(t *testing.T) {
	f := &fakeIptables{chains: map[string][]string{"DOCKER-USER": {"-j RETURN"}, "INPUT": nil}}
	p := Policy{Allow: []netip.Prefix{netip.MustParsePrefix("10.9.8.7/32")}, Resolvers: []netip.Addr{netip.MustParseAddr("10.0.0.2")}}
	nets := &fakeNets{}
	if err := Apply(context.Background(), nets, f.run, p); err != nil {
		t.Fatal(err)
	}
	out := f.chains[ChainOut]
	allow := slices.Index(out, "-d 10.9.8.7/32 -j RETURN")
	block := slices.Index(out, "-d 10.0.0.0/8 -j REJECT --reject-with icmp-port-unreachable")
	dns := slices.Index(out, "-d 10.0.0.2/32 -p udp -m udp --dport 53 -j RETURN")
	if allow < 0 || block < 0 || dns < 0 || allow > block || dns > block || out[len(out)-1] != "-j RETURN" {
		t.Errorf("rules out of order: %q", out)
	}
	if got := f.chains["DOCKER-USER"]; got[0] != "-i gl-egress0 -j GREENLIGHT-EGRESS" || len(got) != 2 {
		t.Errorf("DOCKER-USER = %q", got)
	}
	if got := f.chains["INPUT"]; len(got) != 1 || got[0] != "-i gl-egress0 -j GREENLIGHT-EGRESS-IN" {
		t.Errorf("INPUT = %q", got)
	}
	f.calls = nil
	if err := Apply(context.Background(), nets, f.run, p); err != nil {
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
