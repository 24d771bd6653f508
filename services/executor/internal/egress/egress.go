// Package egress sets up the network install steps get: a bridge network
// of the executor's own whose traffic is filtered by iptables so that an
// install step can reach package registries on the internet, but not the
// host (the Docker API, greenlight's own ports, anything listening there),
// other sandboxes, private networks or the cloud metadata address
// (169.254.169.254).
//
// Every executor instance (Instance, named by an id) has its own network,
// bridge interface and two chains of the filter table, reached only from
// that bridge, so one executor's allow list never applies to another's
// install steps:
//
//	DOCKER-USER -i gl-ID -j GL-EGRESS-ID      forwarded traffic
//	INPUT       -i gl-ID -j GL-EGRESS-IN-ID   traffic to the host
//
// GL-EGRESS-ID lets replies and DNS to the host's resolvers through, then
// the configured allow list, rejects private, loopback, link-local,
// shared, multicast and reserved ranges, and returns everything else to
// Docker's own rules. GL-EGRESS-IN-ID rejects all new connections to the
// host. The network's labels name the instance, its policy and the process
// that owns it: Apply refuses an instance another live process owns,
// Remove undoes everything at shutdown, and an instance whose owner died
// is swept by the next executor on the host.
package egress

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
)

// Labels of an instance's network.
const (
	// LabelNetwork marks greenlight's egress networks (value "egress").
	LabelNetwork = "greenlight.network"
	// LabelInstance is the instance id; LabelPolicy the digest of its
	// rules.
	LabelInstance = "greenlight.egress.instance"
	LabelPolicy   = "greenlight.egress.policy"
)

// Instance names one executor's egress setup.
type Instance struct{ ID string }

// instanceRE keeps every derived name within the kernel's limits (an
// interface name has at most 15 characters, a chain name 28).
var instanceRE = regexp.MustCompile(`^[a-z0-9]{1,11}$`)

// ValidateInstance checks an instance id.
func ValidateInstance(id string) error {
	if !instanceRE.MatchString(id) {
		return fmt.Errorf("egress instance %q must be 1 to 11 lower-case letters or digits "+
			"(it names a network interface)", id)
	}
	return nil
}

// Network is the engine network of the instance's install steps.
func (in Instance) Network() string { return "greenlight-egress-" + in.ID }

// Bridge is the network's bridge interface.
func (in Instance) Bridge() string { return "gl-" + in.ID }

// ChainOut filters the bridge's forwarded traffic.
func (in Instance) ChainOut() string { return "GL-EGRESS-" + in.ID }

// ChainIn filters the bridge's traffic to the host.
func (in Instance) ChainIn() string { return "GL-EGRESS-IN-" + in.ID }

// ErrUnavailable marks a host where the policy cannot be applied (no
// iptables, no privilege).
var ErrUnavailable = errors.New("egress policy unavailable")

// Blocked are the destination ranges install steps may not reach.
var Blocked = []string{
	"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
	"192.0.0.0/24", "192.168.0.0/16", "198.18.0.0/15", "224.0.0.0/4", "240.0.0.0/4",
}

// ErrInUse marks an instance that another live executor owns.
var ErrInUse = errors.New("egress instance in use")

// Networks creates, lists and removes engine networks (implemented by
// internal/docker).
type Networks interface {
	// EnsureNetwork creates a bridge network unless one with that name
	// exists, and returns the labels of the network that exists now.
	EnsureNetwork(ctx context.Context, name string, options, labels map[string]string) (map[string]string, error)
	// RemoveNetwork removes a network; a missing one is not an error.
	RemoveNetwork(ctx context.Context, name string) error
	// NetworkLabels returns the labels of every network carrying label.
	NetworkLabels(ctx context.Context, label string) ([]map[string]string, error)
}

// Owner identifies the executor process applying an instance.
type Owner struct {
	// Labels identify the process (host, pid, start time); they are
	// written on the network.
	Labels map[string]string
	// Alive reports whether the process a network's labels name still
	// runs (false for another host's process: it cannot be checked, and
	// instance ids are per host).
	Alive func(labels map[string]string) bool
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

// Apply creates the instance's network and installs its rules. An
// instance whose network another live process owns is refused (ErrInUse);
// one whose owner died is removed and set up again.
func Apply(ctx context.Context, nets Networks, ipt Iptables, in Instance, p Policy, owner Owner) error {
	if err := ValidateInstance(in.ID); err != nil {
		return err
	}
	if _, err := ipt(ctx, "-S", "DOCKER-USER"); err != nil {
		return fmt.Errorf("%w: cannot read the DOCKER-USER chain (is this the engine's host, as root?): %w", ErrUnavailable, err)
	}
	opts := map[string]string{
		"com.docker.network.bridge.name":       in.Bridge(),
		"com.docker.network.bridge.enable_icc": "false", // runs never reach each other
	}
	labels := map[string]string{LabelNetwork: "egress", LabelInstance: in.ID, LabelPolicy: p.Digest()}
	for k, v := range owner.Labels {
		labels[k] = v
	}
	got, err := nets.EnsureNetwork(ctx, in.Network(), opts, labels)
	if err == nil && !sameLabels(got, labels) {
		if owner.Alive(got) {
			return fmt.Errorf("%w: network %s (policy %s) belongs to another running executor (%v); "+
				"give each executor its own --egress-instance", ErrInUse, in.Network(), got[LabelPolicy], ownerOf(got, owner))
		}
		if err = Remove(ctx, nets, ipt, in); err == nil {
			got, err = nets.EnsureNetwork(ctx, in.Network(), opts, labels)
		}
		if err == nil && !sameLabels(got, labels) {
			err = fmt.Errorf("%w: network %s was taken over meanwhile", ErrInUse, in.Network())
		}
	}
	if err != nil {
		return fmt.Errorf("creating network %s: %w", in.Network(), err)
	}
	if err := syncChain(ctx, ipt, in.ChainOut(), outRules(p)); err != nil {
		return err
	}
	if err := syncChain(ctx, ipt, in.ChainIn(), inRules()); err != nil {
		return err
	}
	if err := ensureJump(ctx, ipt, "DOCKER-USER", in.Bridge(), in.ChainOut()); err != nil {
		return err
	}
	return ensureJump(ctx, ipt, "INPUT", in.Bridge(), in.ChainIn())
}

// sameLabels reports whether got has every label of want.
func sameLabels(got, want map[string]string) bool {
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

// ownerOf is the owner labels of a network, for messages.
func ownerOf(labels map[string]string, o Owner) map[string]string {
	out := map[string]string{}
	for k := range o.Labels {
		out[k] = labels[k]
	}
	return out
}

// Remove deletes an instance: its jumps, its chains and its network (a
// network that still has containers attached stays; the next sweep
// retries).
func Remove(ctx context.Context, nets Networks, ipt Iptables, in Instance) error {
	var errs []error
	for _, j := range [][2]string{{"DOCKER-USER", in.ChainOut()}, {"INPUT", in.ChainIn()}} {
		for range 10 { // a jump inserted twice (by a race) is deleted twice
			if _, err := ipt(ctx, "-D", j[0], "-i", in.Bridge(), "-j", j[1]); err != nil {
				break
			}
		}
	}
	for _, c := range []string{in.ChainOut(), in.ChainIn()} {
		if _, err := ipt(ctx, "-S", c); err != nil {
			continue // no such chain
		}
		if _, err := ipt(ctx, "-F", c); err != nil {
			errs = append(errs, err)
		} else if _, err := ipt(ctx, "-X", c); err != nil {
			errs = append(errs, err)
		}
	}
	if err := nets.RemoveNetwork(ctx, in.Network()); err != nil {
		errs = append(errs, fmt.Errorf("removing network %s: %w", in.Network(), err))
	}
	return errors.Join(errs...)
}

// Sweep removes the instances on this host whose owner died (a SIGKILLed
// executor or CLI) and returns their ids. isStale decides from a network's
// labels.
func Sweep(ctx context.Context, nets Networks, ipt Iptables, isStale func(labels map[string]string) bool) ([]string, error) {
	list, err := nets.NetworkLabels(ctx, LabelInstance)
	if err != nil {
		return nil, err
	}
	var swept []string
	var errs []error
	for _, labels := range list {
		id := labels[LabelInstance]
		if ValidateInstance(id) != nil || !isStale(labels) {
			continue
		}
		if err := Remove(ctx, nets, ipt, Instance{ID: id}); err != nil {
			errs = append(errs, err)
			continue
		}
		swept = append(swept, id)
	}
	return swept, errors.Join(errs...)
}

// Digest is a short digest of the policy's rules.
func (p Policy) Digest() string {
	h := sha256.New()
	for _, r := range outRules(p) {
		fmt.Fprintln(h, strings.Join(r, " "))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
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

// ensureJump puts "-i bridge -j target" first in chain, once.
func ensureJump(ctx context.Context, ipt Iptables, chain, bridge, target string) error {
	rule := []string{"-i", bridge, "-j", target}
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
