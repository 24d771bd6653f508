// Package egress sets up the network install steps get: a dedicated bridge
// network whose traffic is filtered by iptables so that an install step can
// reach package registries on the internet, but not the host (the Docker
// API, greenlight's own ports, anything listening there), other sandboxes,
// private networks or the cloud metadata address (169.254.169.254).
//
// The rules live in two chains of the filter table, reached only from the
// egress bridge:
//
//	DOCKER-USER -i gl-egress0 -j GREENLIGHT-EGRESS     forwarded traffic
//	INPUT       -i gl-egress0 -j GREENLIGHT-EGRESS-IN  traffic to the host
//
// GREENLIGHT-EGRESS lets replies and DNS to the host's resolvers through,
// then the configured allow list, rejects private, loopback, link-local,
// shared, multicast and reserved ranges, and returns everything else to
// Docker's own rules. GREENLIGHT-EGRESS-IN rejects all new connections to
// the host. Applying is idempotent and safe for several executors on one
// host: chains are only rewritten when their content differs.
package egress

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// Names of the network, its bridge interface and the chains.
const (
	NetworkName = "greenlight-egress"
	BridgeName  = "gl-egress0"
	ChainOut    = "GREENLIGHT-EGRESS"
	ChainIn     = "GREENLIGHT-EGRESS-IN"
)

// ErrUnavailable marks a host where the policy cannot be applied (no
// iptables, no privilege).
var ErrUnavailable = errors.New("egress policy unavailable")

// Blocked are the destination ranges install steps may not reach.
var Blocked = []string{
	"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
	"192.0.0.0/24", "192.168.0.0/16", "198.18.0.0/15", "224.0.0.0/4", "240.0.0.0/4",
}

// Networks creates the egress network (implemented by internal/docker).
type Networks interface {
	EnsureNetwork(ctx context.Context, name string, options, labels map[string]string) error
}

// Policy is what Apply sets up.
type Policy struct {
	// Allow lists destination prefixes install steps may reach although
	// they are in a blocked range (a registry mirror, a proxy).
	Allow []netip.Prefix
	// Resolvers are the DNS servers the engine forwards to; port 53 on
	// them stays reachable.
	Resolvers []netip.Addr
}

// Iptables runs one iptables command; tests and hosts without the binary
// may substitute it.
type Iptables func(ctx context.Context, args ...string) (string, error)

// SystemIptables runs the iptables binary.
func SystemIptables(ctx context.Context, args ...string) (string, error) {
	path, err := exec.LookPath("iptables")
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	out, err := exec.CommandContext(ctx, path, append([]string{"-w", "5"}, args...)...).CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("iptables %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

// Apply creates the egress network and installs the rules.
func Apply(ctx context.Context, nets Networks, ipt Iptables, p Policy) error {
	if _, err := ipt(ctx, "-S", "DOCKER-USER"); err != nil {
		return fmt.Errorf("%w: cannot read the DOCKER-USER chain (is this the engine's host, as root?): %w", ErrUnavailable, err)
	}
	opts := map[string]string{
		"com.docker.network.bridge.name":       BridgeName,
		"com.docker.network.bridge.enable_icc": "false", // runs never reach each other
	}
	if err := nets.EnsureNetwork(ctx, NetworkName, opts, map[string]string{"greenlight.network": "egress"}); err != nil {
		return fmt.Errorf("creating network %s: %w", NetworkName, err)
	}
	if err := syncChain(ctx, ipt, ChainOut, outRules(p)); err != nil {
		return err
	}
	if err := syncChain(ctx, ipt, ChainIn, inRules()); err != nil {
		return err
	}
	if err := ensureJump(ctx, ipt, "DOCKER-USER", ChainOut); err != nil {
		return err
	}
	return ensureJump(ctx, ipt, "INPUT", ChainIn)
}

// outRules are the rules of ChainOut, in order.
func outRules(p Policy) [][]string {
	rules := [][]string{{"-m", "conntrack", "--ctstate", "RELATED,ESTABLISHED", "-j", "RETURN"}}
	for _, r := range p.Resolvers {
		for _, proto := range []string{"udp", "tcp"} {
			rules = append(rules, []string{"-d", r.String() + "/32", "-p", proto, "-m", proto, "--dport", "53", "-j", "RETURN"})
		}
	}
	for _, a := range p.Allow {
		rules = append(rules, []string{"-d", a.Masked().String(), "-j", "RETURN"})
	}
	for _, b := range Blocked {
		rules = append(rules, []string{"-d", b, "-j", "REJECT", "--reject-with", "icmp-port-unreachable"})
	}
	return append(rules, []string{"-j", "RETURN"})
}

// inRules reject every new connection from the egress bridge to the host.
func inRules() [][]string {
	return [][]string{
		{"-m", "conntrack", "--ctstate", "RELATED,ESTABLISHED", "-j", "ACCEPT"},
		{"-j", "REJECT", "--reject-with", "icmp-port-unreachable"},
	}
}

// syncChain makes chain hold exactly rules, rewriting it only when needed.
func syncChain(ctx context.Context, ipt Iptables, chain string, rules [][]string) error {
	want := []string{"-N " + chain}
	for _, r := range rules {
		want = append(want, "-A "+chain+" "+strings.Join(r, " "))
	}
	got, err := ipt(ctx, "-S", chain)
	if err == nil && slices.Equal(strings.Split(strings.TrimSpace(got), "\n"), want) {
		return nil
	}
	if err != nil {
		if _, err := ipt(ctx, "-N", chain); err != nil && !strings.Contains(err.Error(), "exists") {
			return err
		}
	} else if _, err := ipt(ctx, "-F", chain); err != nil {
		return err
	}
	for _, r := range rules {
		if _, err := ipt(ctx, append([]string{"-A", chain}, r...)...); err != nil {
			return err
		}
	}
	return nil
}

// ensureJump puts "-i BridgeName -j target" first in chain, once.
func ensureJump(ctx context.Context, ipt Iptables, chain, target string) error {
	rule := []string{"-i", BridgeName, "-j", target}
	if _, err := ipt(ctx, append([]string{"-C", chain}, rule...)...); err == nil {
		return nil
	}
	_, err := ipt(ctx, append([]string{"-I", chain, "1"}, rule...)...)
	return err
}

// Resolvers reads the IPv4 nameservers of a resolv.conf file.
func Resolvers(path string) []netip.Addr {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []netip.Addr
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "nameserver" {
			if a, err := netip.ParseAddr(fields[1]); err == nil && a.Is4() && !a.IsLoopback() {
				out = append(out, a)
			}
		}
	}
	return out
}
