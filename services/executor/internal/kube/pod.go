package kube

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// Names of the pod's parts.
const (
	// mainContainer runs the spec's process.
	mainContainer = "sandbox"
	// stepsContainer runs as sandbox.SandboxUser beside a main process
	// that runs as another unprivileged user (the keepalive of a sandbox
	// without the step runner): Kubernetes exec has no user option, so
	// an Exec as that user goes there (see execContainer).
	stepsContainer = "steps"
	// tmpfsContainer gives the tmpfs volumes the mode and owner the spec
	// asks for before anything else runs (see tmpfsInit).
	tmpfsContainer = "tmpfs"
	// startGate holds a created pod back from scheduling until Start.
	startGate = "greenlight.dev/start"
	// loopback6 is the sysctl the sandbox sets for an IPv6 loopback.
	loopback6 = "net.ipv6.conf.lo.disable_ipv6"
)

// idleResources are the requests and limits of a container that only
// waits: tmpfsContainer, and a keepalive main beside stepsContainer, to
// which the spec's limits go. The keepalive requests no CPU (keepalive
// below), so that the scheduler counts the spec's CPUs alone: two 1-CPU
// sandboxes fit a 2-CPU node.
var idleResources = corev1.ResourceRequirements{
	Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("50m"), corev1.ResourceMemory: resource.MustParse("32Mi")},
	Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("50m"), corev1.ResourceMemory: resource.MustParse("32Mi")},
}

// keepaliveResources are idleResources without the CPU request (the pod's
// QoS class is then Burstable, not Guaranteed: the limits are the same).
var keepaliveResources = corev1.ResourceRequirements{
	Limits:   idleResources.Limits,
	Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("0"), corev1.ResourceMemory: resource.MustParse("32Mi")},
}

// awaitScript is the main process of a pod whose spec keeps stdin open
// for an attachment: it waits for one line on stdin, which the driver
// sends once its attach is connected (a Kubernetes attach only streams
// what is written after it connects, and the runner says hello at
// once), then execs the spec's process with exactly the spec's
// environment. dash and bash read a line one byte at a time from a pipe,
// so nothing after the newline is consumed.
const awaitScript = `IFS= read -r _ || exit 0; exec /usr/bin/env -i "$@"`

// podFor builds the pod of a spec, field by field, adding nothing that
// weakens it:
//
//   - one main container with the spec's user, read-only root,
//     capabilities, allowPrivilegeEscalation=false for
//     no-new-privileges, the runtime's default seccomp profile, requests
//     equal to limits (no swap: Guaranteed QoS), imagePullPolicy Never
//     (the image must be on the node, as a Docker image must be local);
//   - its command runs under `env -i` with the spec's environment, since
//     the kubelet always adds KUBERNETES_SERVICE_HOST and friends, even
//     with enableServiceLinks false (ADVERSARIAL row 14);
//   - tmpfs mounts as memory-backed emptyDirs of the spec's size, given
//     their mode and owner by an init container;
//   - no service-account token, no service links, no host namespaces or
//     paths, restartPolicy Never, terminationGracePeriodSeconds 0;
//   - Init as a shared process namespace: the pod's pause process is PID
//     1 and reaps orphans, as docker-init does;
//   - Sysctls as the pod's (the kubelet must allow net.* ones), but for
//     the IPv6 loopback, which every pod has (verified at Start);
//   - created behind a scheduling gate, which Start removes.
//
// PidsLimit has no pod field: the kubelet's podPidsLimit (one value per
// node) bounds every pod; the spec's value is kept as an annotation.
func podFor(spec sandbox.ContainerSpec, namespace string) (*corev1.Pod, error) {
	labels, realLabels, err := podLabels(spec.Labels)
	if err != nil {
		return nil, err
	}
	labels[LabelNetwork] = networkLabel(spec.Network)
	main, err := mainFor(spec)
	if err != nil {
		return nil, err
	}
	volumes, mounts, init, err := tmpfsVolumes(spec)
	if err != nil {
		return nil, err
	}
	main.VolumeMounts = mounts
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: namespace, Labels: labels,
			Annotations: map[string]string{annLabels: realLabels, annPidsLimit: strconv.FormatInt(spec.PidsLimit, 10)},
		},
		Spec: corev1.PodSpec{
			Containers:                    []corev1.Container{main},
			Volumes:                       volumes,
			RestartPolicy:                 corev1.RestartPolicyNever,
			TerminationGracePeriodSeconds: ptr(int64(0)),
			AutomountServiceAccountToken:  ptr(false),
			EnableServiceLinks:            ptr(false),
			ShareProcessNamespace:         ptr(spec.Init),
			SchedulingGates:               []corev1.PodSchedulingGate{{Name: startGate}},
			SecurityContext:               &corev1.PodSecurityContext{SeccompProfile: main.SecurityContext.SeccompProfile},
		},
	}
	if spec.Name != "" {
		pod.Name = podName(spec.Name)
		pod.Annotations[annName] = spec.Name
	} else {
		pod.GenerateName = "greenlight-"
	}
	for _, k := range sortedKeys(spec.Sysctls) {
		if k == loopback6 && spec.Sysctls[k] == "0" {
			// A pod's loopback has IPv6 already, and Pod Security's
			// baseline level refuses the sysctl: Start verifies it.
			pod.Annotations[annLoopback6] = "true"
			continue
		}
		pod.Spec.SecurityContext.Sysctls = append(pod.Spec.SecurityContext.Sysctls, corev1.Sysctl{Name: k, Value: spec.Sysctls[k]})
	}
	if init != nil {
		pod.Spec.InitContainers = []corev1.Container{*init}
	}
	if needsSteps(spec) {
		steps := main
		steps.Name, steps.Stdin, steps.StdinOnce = stepsContainer, false, false
		steps.SecurityContext = securityFor(spec, sandbox.SandboxUser)
		steps.SecurityContext.RunAsUser, steps.SecurityContext.RunAsGroup, _ = parseUser(sandbox.SandboxUser)
		_ = securityOpts(spec.SecurityOpt, steps.SecurityContext) // mainFor checked them
		steps.Command = envCommand(spec, false)
		pod.Spec.Containers[0].Resources = keepaliveResources
		pod.Spec.Containers = append(pod.Spec.Containers, steps)
	}
	return pod, nil
}

// needsSteps says the pod needs stepsContainer: the main process runs as
// an unprivileged user other than the sandbox user, so nothing in it can
// start a step as the sandbox user.
func needsSteps(spec sandbox.ContainerSpec) bool {
	u, _, _ := strings.Cut(spec.User, ":")
	return u != "" && u != "0" && u != "root" && spec.User != sandbox.SandboxUser
}

// mainFor is the main container of a spec.
func mainFor(spec sandbox.ContainerSpec) (corev1.Container, error) {
	uid, gid, err := parseUser(spec.User)
	if err != nil {
		return corev1.Container{}, err
	}
	sc := securityFor(spec, spec.User)
	sc.RunAsUser, sc.RunAsGroup = uid, gid
	if err := securityOpts(spec.SecurityOpt, sc); err != nil {
		return corev1.Container{}, err
	}
	c := corev1.Container{
		Name: mainContainer, Image: spec.Image, ImagePullPolicy: corev1.PullNever,
		Command: envCommand(spec, spec.OpenStdin), WorkingDir: spec.WorkDir,
		Stdin: spec.OpenStdin, StdinOnce: spec.OpenStdin,
		SecurityContext:          sc,
		TerminationMessagePolicy: corev1.TerminationMessageReadFile,
	}
	c.Resources = corev1.ResourceRequirements{Limits: corev1.ResourceList{}}
	if spec.NanoCPUs > 0 {
		c.Resources.Limits[corev1.ResourceCPU] = *resource.NewMilliQuantity(spec.NanoCPUs/1e6, resource.DecimalSI)
	}
	if spec.MemoryBytes > 0 {
		c.Resources.Limits[corev1.ResourceMemory] = *resource.NewQuantity(spec.MemoryBytes, resource.BinarySI)
	}
	c.Resources.Requests = requestsFor(c.Resources.Limits)
	return c, nil
}

// Requests are a fraction of the limits. The limits are what confines a
// step (the cgroup caps CPU and memory as Docker's do); requests only tell
// the scheduler how much to set aside, and Docker sets aside nothing.
// Requests equal to the limits would make a 2-core node hold one default
// sandbox (1 CPU) and leave warm pods Pending ahead of real runs.
const (
	cpuRequestDivisor    = 8
	memoryRequestDivisor = 4
	minCPURequestMilli   = 50
)

// requestsFor derives a container's requests from its limits.
func requestsFor(limits corev1.ResourceList) corev1.ResourceList {
	req := corev1.ResourceList{}
	if cpu, ok := limits[corev1.ResourceCPU]; ok {
		milli := max(cpu.MilliValue()/cpuRequestDivisor, min(minCPURequestMilli, cpu.MilliValue()))
		req[corev1.ResourceCPU] = *resource.NewMilliQuantity(milli, resource.DecimalSI)
	}
	if mem, ok := limits[corev1.ResourceMemory]; ok {
		req[corev1.ResourceMemory] = *resource.NewQuantity(mem.Value()/memoryRequestDivisor, resource.BinarySI)
	}
	return req
}

// envCommand is the container's command: the spec's entry point and
// command under `env -i` with the spec's environment (see podFor), behind
// awaitScript when await is set. A spec with neither runs the image's
// own, with the kubelet's environment.
func envCommand(spec sandbox.ContainerSpec, await bool) []string {
	argv := append(slices.Clone(spec.Entrypoint), spec.Cmd...)
	if len(argv) == 0 {
		return nil
	}
	env := envOnly(spec.Env)
	if await {
		return append(append([]string{"/bin/sh", "-c", awaitScript, "greenlight-await"}, env...), argv...)
	}
	return append(append([]string{"/usr/bin/env", "-i"}, env...), argv...)
}

// envOnly keeps the NAME=VALUE entries (a bare NAME, which Docker reads
// as "unset", would be taken by env for the command).
func envOnly(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if k, _, ok := strings.Cut(kv, "="); ok && k != "" {
			out = append(out, kv)
		}
	}
	return out
}

// securityFor is a container's security context from the spec, for a
// container running as user.
func securityFor(spec sandbox.ContainerSpec, user string) *corev1.SecurityContext {
	sc := &corev1.SecurityContext{
		Privileged:             ptr(false),
		ReadOnlyRootFilesystem: ptr(spec.ReadonlyRootfs),
		Capabilities:           &corev1.Capabilities{Drop: capList(spec.CapDrop)},
		SeccompProfile:         &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
	}
	if user == spec.User {
		// Only the spec's own user keeps the capabilities it adds (the
		// runner's): a steps container never does.
		sc.Capabilities.Add = capList(spec.CapAdd)
	}
	if slices.Contains(spec.SecurityOpt, "no-new-privileges") || slices.Contains(spec.SecurityOpt, "no-new-privileges:true") ||
		slices.Contains(spec.SecurityOpt, "no-new-privileges=true") {
		sc.AllowPrivilegeEscalation = ptr(false)
	}
	return sc
}

// securityOpts maps the spec's Docker security options: seccomp and
// no-new-privileges; any other is refused rather than dropped.
func securityOpts(opts []string, sc *corev1.SecurityContext) error {
	for _, o := range opts {
		switch {
		case o == "no-new-privileges" || o == "no-new-privileges:true" || o == "no-new-privileges=true":
		case o == "seccomp=unconfined" || o == "seccomp:unconfined":
			sc.SeccompProfile = &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeUnconfined}
		default:
			return fmt.Errorf("security option %q cannot be applied to a pod", o)
		}
	}
	return nil
}

// capList is a capability list in Kubernetes' spelling (no CAP_ prefix).
func capList(caps []string) []corev1.Capability {
	var out []corev1.Capability
	for _, c := range caps {
		out = append(out, corev1.Capability(strings.TrimPrefix(strings.ToUpper(c), "CAP_")))
	}
	return out
}

// parseUser reads "uid[:gid]" (numeric: a pod cannot name a user of the
// image); "" is the image's user.
func parseUser(user string) (uid, gid *int64, err error) {
	if user == "" {
		return nil, nil, nil
	}
	u, g, hasGID := strings.Cut(user, ":")
	n, err := strconv.ParseInt(u, 10, 64)
	if err != nil || n < 0 {
		return nil, nil, fmt.Errorf("user %q: a pod needs a numeric uid", user)
	}
	uid = &n
	if hasGID {
		m, err := strconv.ParseInt(g, 10, 64)
		if err != nil || m < 0 {
			return nil, nil, fmt.Errorf("user %q: a pod needs a numeric gid", user)
		}
		gid = &m
	}
	return uid, gid, nil
}

func ptr[T any](v T) *T { return &v }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
