package kube

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// A pod's network: its interface cannot be detached, so its LabelNetwork
// selects one of the driver's two NetworkPolicies, which the cluster's
// policy engine enforces.
const (
	// NetworkNone: no ingress, no egress (policyOffline).
	NetworkNone = "none"
	// NetworkEgress: no ingress; egress to public addresses and DNS
	// (policyEgress).
	NetworkEgress = "egress"

	policyOffline = "greenlight-offline"
	policyEgress  = "greenlight-egress"
)

// blockedRanges are never reachable with egress: private, shared
// (carrier-grade NAT), link-local (the metadata address) and loopback
// ranges, where the cluster's nodes, its API server and services live.
var blockedRanges = []string{"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16", "127.0.0.0/8"}

// Offline verification: how long Start and Disconnect wait for the cut to
// be in force, and how long one probe waits for a connection.
const (
	offlineWait  = 20 * time.Second
	probeConnect = "1"
)

// networkLabel is a spec's network as LabelNetwork: any network is
// egress.
func networkLabel(network string) string {
	if network == "" {
		return NetworkNone
	}
	return NetworkEgress
}

// Connect gives the pod egress (any network name: there is one egress
// policy).
func (r *Runtime) Connect(ctx context.Context, id, network string) error {
	if err := r.ensurePolicies(ctx); err != nil {
		return err
	}
	_, err := r.setNetwork(ctx, id, NetworkEgress)
	return err
}

// Disconnect takes the pod's egress away and returns once a probe from
// inside the pod finds the cut in force (see verifyNetwork). Connections
// opened before stay open: the policy engine lets established flows
// through (kube-router accepts RELATED,ESTABLISHED first).
func (r *Runtime) Disconnect(ctx context.Context, id, network string) error {
	pod, err := r.setNetwork(ctx, id, NetworkNone)
	if err != nil {
		return err
	}
	if err := r.endStepProcesses(ctx, pod); err != nil {
		return err
	}
	return r.verifyNetwork(ctx, pod, true)
}

// killStepsScript kills the processes the steps left: every process of a
// uid other than root's (pause, the runner) and the keepalive's 65534,
// except the shell running it and what a container itself runs. In the
// pod's shared process namespace a container's main process and an exec'd
// process have parent 0 (started from outside); the steps are over, so the
// only other processes a container keeps are the children of a non-root
// main (the steps container's keepalive sleep). Leftovers hang under pause
// or the runner (orphans), or under such an orphan.
const killStepsScript = `ppid() { while read -r k v; do [ "$k" = PPid: ] && { echo "$v"; return; }; done <"/proc/$1/status"; } 2>/dev/null
for d in /proc/[0-9]*; do
  p=${d#/proc/}; [ "$p" = "$$" ] && continue
  u=$(stat -c %u "$d" 2>/dev/null) || continue
  case "$u" in 0|65534) continue ;; esac
  pp=$(ppid "$p"); { [ -z "$pp" ] || [ "$pp" = 0 ]; } && continue
  [ "$(ppid "$pp")" = 0 ] && [ "$(stat -c %u "/proc/$pp" 2>/dev/null)" != 0 ] && continue
  kill -KILL "$p" 2>/dev/null
done
exit 0`

// endStepProcesses kills what the steps left running before the pod goes
// offline. A NetworkPolicy applies to new connections only (the policy
// engine accepts established flows), so a process an install step left in
// the background could keep its connection into the test steps; with
// Docker, disconnecting removes the interface and every socket with it.
// The pod shares one process namespace, so a container running as root
// (the runner's, which has CAP_KILL) sees and kills them all; an
// exec-mode pod's steps container kills the processes of its own uid.
func (r *Runtime) endStepProcesses(ctx context.Context, pod *corev1.Pod) error {
	c := killerContainer(pod)
	if c == "" {
		return fmt.Errorf("%w: pod %s: no container can end the steps' processes before going offline", errNetwork, pod.Name)
	}
	code, err := r.execStream(ctx, pod.Name, c, []string{"/bin/sh", "-c", killStepsScript}, nil, nil, nil)
	if err == nil && code != 0 {
		err = fmt.Errorf("exited %d", code)
	}
	if err != nil {
		return fmt.Errorf("ending the steps' processes in pod %s before going offline: %w", pod.Name, err)
	}
	return nil
}

// killerContainer is the pod's container running as root, else one
// running as a step user (not the keepalive's 65534).
func killerContainer(pod *corev1.Pod) string {
	uid := func(c *corev1.Container) int64 {
		if c.SecurityContext == nil || c.SecurityContext.RunAsUser == nil {
			return -1
		}
		return *c.SecurityContext.RunAsUser
	}
	for i := range pod.Spec.Containers {
		if uid(&pod.Spec.Containers[i]) == 0 {
			return pod.Spec.Containers[i].Name
		}
	}
	for i := range pod.Spec.Containers {
		if u := uid(&pod.Spec.Containers[i]); u > 0 && u != 65534 {
			return pod.Spec.Containers[i].Name
		}
	}
	return ""
}

// setNetwork sets the pod's LabelNetwork.
func (r *Runtime) setNetwork(ctx context.Context, id, value string) (*corev1.Pod, error) {
	var pod *corev1.Pod
	err := r.call(ctx, "pod label", func(ctx context.Context) error {
		var err error
		patch := fmt.Sprintf(`{"metadata":{"labels":{%q:%q}}}`, LabelNetwork, value)
		pod, err = r.cs.CoreV1().Pods(r.namespace).Patch(ctx, id, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
		return err
	})
	return pod, err
}

// policies are the driver's two NetworkPolicies; except adds addresses
// of the API server and the nodes that lie outside blockedRanges.
func policies(namespace string, except []string) []*networkingv1.NetworkPolicy {
	sel := func(v string) metav1.LabelSelector {
		return metav1.LabelSelector{MatchLabels: map[string]string{labelManaged: managedBy, LabelNetwork: v}}
	}
	both := []networkingv1.PolicyType{networkingv1.PolicyTypeIngress, networkingv1.PolicyTypeEgress}
	dns := intstr.FromInt32(53)
	udp, tcp := corev1.ProtocolUDP, corev1.ProtocolTCP
	return []*networkingv1.NetworkPolicy{
		{
			ObjectMeta: metav1.ObjectMeta{Name: policyOffline, Namespace: namespace, Labels: map[string]string{labelManaged: managedBy}},
			Spec:       networkingv1.NetworkPolicySpec{PodSelector: sel(NetworkNone), PolicyTypes: both},
		},
		{
			ObjectMeta: metav1.ObjectMeta{Name: policyEgress, Namespace: namespace, Labels: map[string]string{labelManaged: managedBy}},
			Spec: networkingv1.NetworkPolicySpec{PodSelector: sel(NetworkEgress), PolicyTypes: both, Egress: []networkingv1.NetworkPolicyEgressRule{
				{To: []networkingv1.NetworkPolicyPeer{{IPBlock: &networkingv1.IPBlock{CIDR: "0.0.0.0/0", Except: append(slices.Clone(blockedRanges), except...)}}}},
				// DNS, to whichever resolver the pod has (the cluster's,
				// or the node's): port 53 only.
				{Ports: []networkingv1.NetworkPolicyPort{{Protocol: &udp, Port: &dns}, {Protocol: &tcp, Port: &dns}}},
			}},
		},
	}
}

// ensurePolicies creates or corrects the two NetworkPolicies, once per
// runtime (later calls cost nothing): before the first pod, so that no
// pod of the driver ever runs unselected.
func (r *Runtime) ensurePolicies(ctx context.Context) error {
	r.policiesOnce.Lock()
	defer r.policiesOnce.Unlock()
	if r.policiesOK {
		return nil
	}
	for _, want := range policies(r.namespace, r.publicControlPlane(ctx)) {
		err := r.call(ctx, "network policy", func(ctx context.Context) error {
			api := r.cs.NetworkingV1().NetworkPolicies(r.namespace)
			got, err := api.Get(ctx, want.Name, getOptions())
			if err != nil {
				_, err = api.Create(ctx, want, metav1.CreateOptions{})
				return err
			}
			if reflect.DeepEqual(got.Spec, want.Spec) {
				return nil
			}
			got.Spec = want.Spec
			_, err = api.Update(ctx, got, metav1.UpdateOptions{})
			return err
		})
		if err != nil {
			return err
		}
	}
	r.policiesOK = true
	return nil
}

// controlPlane returns the addresses of the API server's endpoints
// (host:port, from the EndpointSlices of the default namespace's
// kubernetes Service) and the nodes' addresses, as far as the driver may
// read them.
func (r *Runtime) controlPlane(ctx context.Context) (apiServers, nodes []string) {
	eps, err := r.cs.DiscoveryV1().EndpointSlices(metav1.NamespaceDefault).List(ctx, listOptions(discoveryv1.LabelServiceName+"=kubernetes"))
	if err == nil {
		for _, s := range eps.Items {
			for _, e := range s.Endpoints {
				for _, a := range e.Addresses {
					for _, p := range s.Ports {
						if p.Port != nil {
							apiServers = append(apiServers, net.JoinHostPort(a, strconv.Itoa(int(*p.Port))))
						}
					}
				}
			}
		}
	} else {
		r.log.Debug("API server endpoints not readable", zap.Error(err))
	}
	if list, err := r.cs.CoreV1().Nodes().List(ctx, listOptions("")); err == nil {
		for _, n := range list.Items {
			for _, a := range n.Status.Addresses {
				if a.Type == corev1.NodeInternalIP || a.Type == corev1.NodeExternalIP {
					nodes = append(nodes, a.Address)
				}
			}
		}
	}
	return apiServers, nodes
}

// publicControlPlane is the API server's and the nodes' IPv4 addresses
// outside blockedRanges, as /32 blocks: egress must not reach them
// either (ADVERSARIAL row 13).
func (r *Runtime) publicControlPlane(ctx context.Context) []string {
	apiServers, nodes := r.controlPlane(ctx)
	var out []string
	for _, hp := range apiServers {
		host, _, _ := strings.Cut(hp, ":")
		nodes = append(nodes, host)
	}
	for _, a := range nodes {
		ip, err := netip.ParseAddr(a)
		if err != nil || !ip.Is4() || blocked(ip) || slices.Contains(out, a+"/32") {
			continue
		}
		out = append(out, a+"/32")
	}
	return out
}

func blocked(ip netip.Addr) bool {
	for _, c := range blockedRanges {
		if netip.MustParsePrefix(c).Contains(ip) {
			return true
		}
	}
	return false
}

// offlineTargets are what an offline pod must not reach and what a pod
// without any policy would: the API server's endpoints. The probe adds
// the pod's own resolvers on port 53, which the egress policy allows, so
// reaching one tells a pod whose switch from egress is not yet enforced.
// Asked once per runtime.
func (r *Runtime) offlineTargets(ctx context.Context) []string {
	r.probeMu.Lock()
	defer r.probeMu.Unlock()
	if r.probeTargets == nil {
		r.probeTargets, _ = r.controlPlane(ctx)
	}
	return r.probeTargets
}

// probeScript checks the pod's network from inside (for $0 seconds per
// connection) and prints a line per problem:
//
//   - "ipv6 IFACE" for an interface other than lo with an IPv6 address: as
//     with Docker, only the loopback may have IPv6 (the policy engine
//     filters IPv4; a link-local address would reach other pods over the
//     node's bridge around it);
//   - "no-ipv6-loopback" when $1 is "lo6" and lo has no IPv6;
//   - "open TARGET" for each host:port of the remaining arguments, and
//     each IPv4 resolver of /etc/resolv.conf on port 53, that accepts a
//     connection (bash's /dev/tcp within coreutils' timeout, all at once).
//     The targets listen: a refusal or a timeout is the policy's
//     (kube-router rejects what a policy denies).
//
// Run as root (the runner's container), it first makes the container's
// /dev/termination-log read-only: the kubelet bind-mounts a world-writable
// host file there, which a step could fill without bound (ADVERSARIAL row
// 7); root owns it, so no capability is needed. It exits 3 when the image
// lacks bash or timeout.
const probeScript = `command -v bash >/dev/null && command -v timeout >/dev/null || exit 3
[ "$(id -u)" = 0 ] && chmod 0444 /dev/termination-log 2>/dev/null
t=$0 lo6=$1; shift
awk '$6 != "lo" { print "ipv6 " $6 }' /proc/net/if_inet6 2>/dev/null
if [ "$lo6" = lo6 ] && ! grep -q ' lo$' /proc/net/if_inet6 2>/dev/null; then echo no-ipv6-loopback; fi
if [ $# -gt 0 ]; then
  for ns in $(awk '$1 == "nameserver" && $2 !~ /^127\./ && $2 !~ /:/ { print $2 }' /etc/resolv.conf 2>/dev/null); do
    set -- "$@" "$ns:53"
  done
fi
for a in "$@"; do
  (timeout "$t" bash -c 'exec 3<>"/dev/tcp/${0%:*}/${0##*:}"' "$a" 2>/dev/null && echo "open $a") &
done
wait`

// errNetwork marks a pod whose network is not what the spec asks.
var errNetwork = errors.New("sandbox network not as confined as asked")

// verifyNetwork probes the pod from inside: IPv6 only on the loopback
// (and there, when the spec asked for it: annLoopback6) and, when
// offline, none of offlineTargets reachable, retried within offlineWait:
// the cut is verified, never assumed (the policy engine applies a label
// asynchronously, and a CNI without policy enforcement accepts
// NetworkPolicies and enforces nothing).
func (r *Runtime) verifyNetwork(ctx context.Context, pod *corev1.Pod, offline bool) error {
	var targets []string
	if offline {
		if targets = r.offlineTargets(ctx); len(targets) == 0 {
			return fmt.Errorf("%w: pod %s: no address to probe the cut with (the API server's endpoints are not readable)", errNetwork, pod.Name)
		}
	}
	lo6 := "-"
	if pod.Annotations[annLoopback6] == "true" {
		lo6 = "lo6"
	}
	cmd := append([]string{"/bin/sh", "-c", probeScript, probeConnect, lo6}, targets...)
	deadline := time.Now().Add(offlineWait)
	for delay := 50 * time.Millisecond; ; delay = min(2*delay, time.Second) {
		var out strings.Builder
		code, err := r.execStream(ctx, pod.Name, pod.Spec.Containers[0].Name, cmd, nil, &out, nil)
		switch {
		case err != nil:
			return fmt.Errorf("probing the network of pod %s: %w", pod.Name, err)
		case code == 3:
			return fmt.Errorf("%w: pod %s: its image has no bash and timeout to probe the network with", errNetwork, pod.Name)
		case code != 0:
			return fmt.Errorf("%w: pod %s: the network probe exited %d", errNetwork, pod.Name, code)
		}
		var open, fixed []string
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			if t, ok := strings.CutPrefix(line, "open "); ok {
				open = append(open, t)
			} else if line != "" {
				fixed = append(fixed, line)
			}
		}
		switch {
		case len(fixed) > 0:
			return fmt.Errorf("%w: pod %s: %s (the cluster's CNI must leave IPv6 on the loopback only)", errNetwork, pod.Name, strings.Join(fixed, ", "))
		case len(open) == 0:
			return nil
		case time.Now().After(deadline):
			return fmt.Errorf("%w: pod %s still reaches %s after %s: does the cluster enforce NetworkPolicies?",
				errNetwork, pod.Name, strings.Join(open, ", "), offlineWait)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
	}
}
