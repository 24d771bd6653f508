package sandbox

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
)

// Fixed sandbox layout and identities.
const (
	// SandboxUser runs every step: an unprivileged uid/gid that owns the
	// writable mounts (the images create it as "sandbox").
	SandboxUser = "10001:10001"
	sandboxUID  = 10001
	// keepaliveUser runs the main process of a sandbox without the step
	// runner (keepaliveCmd). It differs from
	// SandboxUser so that code under test cannot kill it (kill -9 -1) and
	// stop the container between steps, and cannot read its environment.
	keepaliveUser = "65534:65534"
	// WorkspaceDir is where the snapshot is unpacked (a size-capped tmpfs).
	WorkspaceDir = "/workspace"
	// HomeDir is the sandbox user's home (a size-capped tmpfs).
	HomeDir = "/home/sandbox"
	// TmpDir is the scratch directory (a size-capped tmpfs).
	TmpDir = "/tmp"
	// caBundleFile is where install steps find the trusted CA bundle.
	caBundleFile = TmpDir + "/.greenlight/ca-bundle.pem"
	// defaultPath is used when the image does not set PATH.
	defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
)

// keepaliveCmd is the container's main process: it only keeps the container
// (and its namespaces and mounts) alive between steps, and for lifetime at
// most. The init process (docker-init) runs above it and reaps orphans.
// When it exits (at the deadline, or on SIGTERM) the container stops, with
// every process in it, whether or not the greenlight process that created
// it is still alive; a stopped container is removed by its creator or by
// the reaper of any later greenlight process (its deadline label has
// passed).
func keepaliveCmd(lifetime time.Duration) []string {
	return []string{"/bin/sh", "-c", "trap 'exit 0' TERM; sleep " + lifetimeSeconds(lifetime) + " & wait $!"}
}

// lifetimeSeconds is a keepalive lifetime in whole seconds, at least one.
func lifetimeSeconds(d time.Duration) string {
	return strconv.FormatInt(max(int64(d.Round(time.Second)/time.Second), 1), 10)
}

// oomFirst is how every step starts: its shell raises its own
// oom_score_adj to 1000 (raising needs no capability; children inherit it)
// and then becomes the step's shell. When the sandbox runs out of memory,
// the kernel's OOM killer thus picks the step's processes before the step
// runner, the main process or docker-init, whatever their sizes, so a step
// cannot get the runner killed and its own verdict turned into an
// infrastructure error. It is the same in both step runner modes.
const oomFirst = `echo 1000 >/proc/self/oom_score_adj && exec "$@"`

// stepCmd is the argv of a step running command.
func stepCmd(command string) []string {
	return []string{"/bin/sh", "-c", oomFirst, "sh", "/bin/sh", "-c", command}
}

// runnerCaps are the only capabilities a runner-enabled sandbox keeps.
// The container runs as root so that the runner, its main process, has
// them (a non-root container user gets an empty effective set): it needs
// SETUID and SETGID to start steps as the sandbox user and KILL to kill
// their process groups. Every process running as another user has none:
// the kernel clears the permitted and effective sets on the switch to a
// non-zero uid, and no-new-privileges keeps setuid binaries and file
// capabilities from giving any back.
var runnerCaps = []string{"SETUID", "SETGID", "KILL"}

// runnerMain is the main process of a runner-enabled sandbox: the runner
// itself serving the protocol on its stdin and stdout (the executor
// attaches before the container starts; the image's own entry point is not
// run as root), which ends, stopping the container, when that attachment
// ends (the engine closes its stdin) or after lifetime, like keepaliveCmd.
func runnerMain(lifetime time.Duration) (entrypoint, cmd []string) {
	return []string{runnerproto.Path}, []string{"serve", lifetimeSeconds(lifetime)}
}

// hardenedSpec is the one place that decides how a sandbox container is
// confined:
//
//   - every capability dropped, no-new-privileges (setuid binaries gain
//     nothing), the engine's default seccomp profile and masked /proc paths;
//   - non-root user for every step, another one for the main process
//     (but see runner below);
//   - read-only root filesystem; /tmp, the home directory and the workspace
//     are size-capped tmpfs mounts, nosuid and nodev;
//   - CPU, memory (swap equal to memory, so no swap), pids limits;
//   - an init process that reaps orphans;
//   - a main process that exits after lifetime, stopping the container
//     even when nobody is left to remove it (the runner also exits when
//     its creator's attachment ends);
//   - no network unless network is set (and then only until the runner
//     disconnects it); no host mounts, no Docker socket, no host variables:
//     the environment is exactly env;
//   - an IPv6 loopback and no other IPv6 (see loopbackIPv6).
//
// With runner set (the image has greenlight-runner and the executor uses
// it), the container keeps CAP_SETUID, CAP_SETGID and CAP_KILL for the
// runner alone (see runnerCaps), and its main process is the runner (see
// runnerMain), which starts every step as SandboxUser.
func hardenedSpec(image string, lim Limits, labels map[string]string, network string, env []string, runner bool,
	lifetime time.Duration) ContainerSpec {
	tmpfs := func(size int64, owned bool, mode string) string {
		opts := fmt.Sprintf("rw,exec,nosuid,nodev,size=%d,mode=%s", size, mode)
		if owned {
			opts += fmt.Sprintf(",uid=%d,gid=%d", sandboxUID, sandboxUID)
		}
		return opts
	}
	spec := ContainerSpec{
		Image:          image,
		Cmd:            keepaliveCmd(lifetime),
		User:           keepaliveUser,
		WorkDir:        WorkspaceDir,
		Env:            env,
		Labels:         labels,
		Network:        network,
		NanoCPUs:       int64(lim.CPUs * 1e9),
		MemoryBytes:    lim.MemoryBytes,
		PidsLimit:      lim.Pids,
		ReadonlyRootfs: true,
		Tmpfs: map[string]string{
			TmpDir:       tmpfs(lim.TmpfsBytes, false, "1777"),
			HomeDir:      tmpfs(lim.HomeBytes, true, "0755"),
			WorkspaceDir: tmpfs(lim.WorkspaceBytes, true, "0755"),
		},
		CapDrop:     []string{"ALL"},
		SecurityOpt: []string{"no-new-privileges"},
		Init:        true,
		Sysctls:     loopbackIPv6(network),
	}
	if runner {
		spec.User, spec.CapAdd, spec.OpenStdin = "0:0", runnerCaps, true
		spec.Entrypoint, spec.Cmd = runnerMain(lifetime)
	}
	return spec
}

// loopbackIPv6 is the sysctl that gives the sandbox what every CI runner
// has, an IPv6 loopback (::1): the engine creates the container's network
// namespace with IPv6 disabled on every interface when its network has no
// IPv6, so tests binding [::1] fail with EADDRNOTAVAIL (libuv's
// udp_recvmsg_unreachable_error6) or skip. Only lo is enabled: "all" and
// "default" stay disabled, so an interface attached later (the install
// network's eth0) has no IPv6 at all, not even a link-local address that
// would reach the host or other sandboxes around the IPv4-only egress
// filter; there is no global address and no route but loopback's. The
// setting lives in the sandbox's own network namespace, which the code
// under test cannot change (/proc/sys is read-only, no CAP_NET_ADMIN). The
// engine refuses net.* sysctls in the host's namespace: none then.
func loopbackIPv6(network string) map[string]string {
	if network == "host" {
		return nil
	}
	return map[string]string{"net.ipv6.conf.lo.disable_ipv6": "0"}
}

// adjustSpec applies the configuration's exceptions to a hardened spec:
// no IPv6 loopback on an engine without IPv6.
func (c *Config) adjustSpec(spec *ContainerSpec) {
	if c.NoLoopbackIPv6 {
		spec.Sysctls = nil
	}
}

// startError names the remedy when a sandbox could not start because the
// engine's kernel has no IPv6 (runc cannot write the loopback's sysctl).
func startError(err error) error {
	if err != nil && strings.Contains(err.Error(), "disable_ipv6") {
		return fmt.Errorf("%w (the engine's kernel has no IPv6, so the sandbox's IPv6 loopback cannot be enabled: "+
			"run the executor with --ipv6-loopback=false)", err)
	}
	return err
}

// baseEnv is the complete environment of a sandbox container: PATH (the
// image's own, so toolchains are found; see toolPath), HOME, LANG, TMPDIR
// and CI=true. Nothing is taken from the executor's environment.
//
// CI=true is what every CI service sets, and what the maintainers' tests
// ran under: jest runs with --ci (a missing snapshot fails instead of being
// written), pnpm installs --frozen-lockfile, colour libraries
// (picocolors, colorette, supports-color) decide on it, and suites that
// assert coloured or non-interactive output expect it.
func baseEnv(img ImageInfo) []string {
	path := defaultPath
	for _, kv := range img.Env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok && v != "" {
			path = v
		}
	}
	return []string{"PATH=" + toolPath(path), "HOME=" + HomeDir, "LANG=C.UTF-8", "TMPDIR=" + TmpDir, "CI=true"}
}

// caEnv points the usual tools at the CA bundle (install steps only).
func caEnv() []string {
	vars := []string{"SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS", "PIP_CERT", "REQUESTS_CA_BUNDLE", "GIT_SSL_CAINFO", "CURL_CA_BUNDLE"}
	env := make([]string, len(vars))
	for i, v := range vars {
		env[i] = v + "=" + caBundleFile
	}
	return env
}
