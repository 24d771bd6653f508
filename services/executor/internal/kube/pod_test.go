package kube

import (
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// problems lists what makes a container weaker than a sandbox's: each
// one a reason the test fails.
func containerProblems(c corev1.Container, wantUser int64, wantAdd []corev1.Capability) []string {
	var p []string
	add := func(ok bool, msg string) {
		if !ok {
			p = append(p, c.Name+": "+msg)
		}
	}
	sc := c.SecurityContext
	if sc == nil {
		return []string{c.Name + ": no security context"}
	}
	add(sc.RunAsUser != nil && *sc.RunAsUser == wantUser, "runAsUser")
	add(sc.Privileged != nil && !*sc.Privileged, "privileged not false")
	add(sc.AllowPrivilegeEscalation != nil && !*sc.AllowPrivilegeEscalation, "allowPrivilegeEscalation not false")
	add(sc.ReadOnlyRootFilesystem != nil && *sc.ReadOnlyRootFilesystem, "root filesystem writable")
	add(sc.Capabilities != nil && slices.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}), "not all capabilities dropped")
	add(sc.Capabilities != nil && slices.Equal(sc.Capabilities.Add, wantAdd), "capabilities added: want "+strings.Join(capStrings(wantAdd), ","))
	add(sc.SeccompProfile != nil && sc.SeccompProfile.Type == corev1.SeccompProfileTypeRuntimeDefault, "seccomp not RuntimeDefault")
	add(sc.ProcMount == nil, "procMount set")
	add(c.ImagePullPolicy == corev1.PullNever, "image may be pulled")
	add(c.Resources.Limits.Cpu().Sign() > 0 && c.Resources.Limits.Memory().Sign() > 0, "no CPU or memory limit")
	add(c.Resources.Requests.Cpu().Sign() > 0 && c.Resources.Requests.Cpu().Cmp(*c.Resources.Limits.Cpu()) <= 0 &&
		c.Resources.Requests.Memory().Sign() > 0 && c.Resources.Requests.Memory().Cmp(*c.Resources.Limits.Memory()) <= 0,
		"requests missing or above the limits")
	add(len(c.EnvFrom) == 0 && len(c.Env) == 0, "environment from the pod spec (the kubelet's own would follow)")
	add(len(c.Ports) == 0, "ports")
	return p
}

func capStrings(caps []corev1.Capability) []string {
	out := make([]string, len(caps))
	for i, c := range caps {
		out[i] = string(c)
	}
	return out
}

// The pod of a runner-mode sandbox has every property the spec asks for
// and nothing weaker: one container as root with exactly the runner's
// capabilities and stdin for the attachment, the rest as hardened as
// Docker's container, the pod without token, links or host namespaces.
func TestPodForRunnerSpec(t *testing.T) {
	spec := runnerSpec()
	pod, err := podFor(spec, testNS)
	if err != nil {
		t.Fatal(err)
	}
	ps := pod.Spec
	if len(ps.Containers) != 1 {
		t.Fatalf("%d containers, want 1", len(ps.Containers))
	}
	main := ps.Containers[0]
	for _, p := range containerProblems(main, 0, []corev1.Capability{"SETUID", "SETGID", "KILL"}) {
		t.Error(p)
	}
	if *main.SecurityContext.RunAsGroup != 0 || !main.Stdin || !main.StdinOnce || main.TTY {
		t.Errorf("main: group %d stdin %v once %v tty %v; want 0, stdin once, no tty", *main.SecurityContext.RunAsGroup, main.Stdin, main.StdinOnce, main.TTY)
	}
	if cpu, mem := main.Resources.Limits.Cpu(), main.Resources.Limits.Memory(); cpu.MilliValue() != 1500 || mem.Value() != 2<<30 {
		t.Errorf("limits cpu %s memory %s, want 1500m and 2Gi", cpu, mem)
	}
	// The command: wait for the go-ahead, then exactly the spec's process
	// with exactly its environment.
	want := append(append([]string{"/bin/sh", "-c", awaitScript, "greenlight-await"}, spec.Env...), runnerproto.Path, "serve", "3600")
	if !slices.Equal(main.Command, want) || len(main.Args) != 0 {
		t.Errorf("command %q args %q, want %q", main.Command, main.Args, want)
	}
	checkPod(t, pod, spec)
}

// checkPod checks the pod-level properties every sandbox pod has.
func checkPod(t *testing.T, pod *corev1.Pod, spec sandbox.ContainerSpec) {
	t.Helper()
	ps := pod.Spec
	for name, ok := range map[string]bool{
		"automountServiceAccountToken false": ps.AutomountServiceAccountToken != nil && !*ps.AutomountServiceAccountToken,
		"enableServiceLinks false":           ps.EnableServiceLinks != nil && !*ps.EnableServiceLinks,
		"no host namespaces":                 !ps.HostNetwork && !ps.HostPID && !ps.HostIPC && ps.HostUsers == nil,
		"restartPolicy Never":                ps.RestartPolicy == corev1.RestartPolicyNever,
		"terminationGracePeriodSeconds 0":    ps.TerminationGracePeriodSeconds != nil && *ps.TerminationGracePeriodSeconds == 0,
		"shareProcessNamespace (Init)":       ps.ShareProcessNamespace != nil && *ps.ShareProcessNamespace,
		"scheduling gate until Start":        len(ps.SchedulingGates) == 1 && ps.SchedulingGates[0].Name == startGate,
		"no service account named":           ps.ServiceAccountName == "" && ps.NodeName == "",
		"IPv6 loopback verified, not set":    len(ps.SecurityContext.Sysctls) == 0 && pod.Annotations[annLoopback6] == "true",
		"pod seccomp RuntimeDefault":         ps.SecurityContext.SeccompProfile.Type == corev1.SeccompProfileTypeRuntimeDefault,
		"no fsGroup or supplemental groups":  ps.SecurityContext.FSGroup == nil && len(ps.SecurityContext.SupplementalGroups) == 0,
		"offline":                            pod.Labels[LabelNetwork] == NetworkNone,
		"pids limit recorded":                pod.Annotations[annPidsLimit] == "256",
		"valid name":                         len(validation.IsDNS1123Label(pod.Name)) == 0 && pod.Annotations[annName] == spec.Name,
	} {
		if !ok {
			t.Errorf("pod: not %s", name)
		}
	}
	// Volumes: only memory-backed emptyDirs of the spec's sizes.
	sizes := map[string]int64{}
	for _, v := range ps.Volumes {
		ed := v.EmptyDir
		if ed == nil || v.HostPath != nil || ed.Medium != corev1.StorageMediumMemory || ed.SizeLimit == nil {
			t.Errorf("volume %s is not a sized memory emptyDir: %+v", v.Name, v.VolumeSource)
			continue
		}
		sizes[v.Name] = ed.SizeLimit.Value()
	}
	got := map[string]int64{}
	for _, m := range ps.Containers[0].VolumeMounts {
		got[m.MountPath] = sizes[m.Name]
		if m.ReadOnly || m.SubPath != "" || m.MountPropagation != nil {
			t.Errorf("mount %s: %+v", m.MountPath, m)
		}
	}
	want := map[string]int64{"/tmp": 512 << 20, sandbox.HomeDir: 1 << 30, sandbox.WorkspaceDir: 1 << 30}
	if len(got) != len(want) || got["/tmp"] != want["/tmp"] || got[sandbox.HomeDir] != want[sandbox.HomeDir] ||
		got[sandbox.WorkspaceDir] != want[sandbox.WorkspaceDir] {
		t.Errorf("tmpfs mounts %v, want %v", got, want)
	}
	// The init container: root with CAP_CHOWN alone, applying the
	// spec's modes and owners.
	if len(ps.InitContainers) != 1 {
		t.Fatalf("%d init containers, want 1 (tmpfs modes and owners)", len(ps.InitContainers))
	}
	init := ps.InitContainers[0]
	for _, p := range containerProblems(init, 0, []corev1.Capability{"CHOWN"}) {
		t.Error(p)
	}
	args := strings.Join(init.Command[4:], " ")
	for _, w := range []string{"1777 ", "0755 10001:10001"} {
		if !strings.Contains(args, w) {
			t.Errorf("init arguments %q lack %q", args, w)
		}
	}
	// Labels: every value valid; the real ones in the annotation.
	for k, v := range pod.Labels {
		if len(validation.IsQualifiedName(k)) > 0 || len(validation.IsValidLabelValue(v)) > 0 {
			t.Errorf("invalid label %s=%s", k, v)
		}
	}
	if real := realLabels(pod.Labels, pod.Annotations); real[sandbox.LabelOwner] != spec.Labels[sandbox.LabelOwner] || len(real) != len(spec.Labels) {
		t.Errorf("real labels %v, want %v", real, spec.Labels)
	}
}

// An exec-mode sandbox keeps its keepalive as 65534, with almost no
// resources, and gets a steps container as the sandbox user (where Exec
// runs as that user) with the spec's limits and no added capability.
func TestPodForExecSpec(t *testing.T) {
	spec := execSpec()
	pod, err := podFor(spec, testNS)
	if err != nil {
		t.Fatal(err)
	}
	if len(pod.Spec.Containers) != 2 {
		t.Fatalf("%d containers, want the keepalive and the steps container", len(pod.Spec.Containers))
	}
	main, steps := pod.Spec.Containers[0], pod.Spec.Containers[1]
	for _, p := range append(containerProblems(main, 65534, nil), containerProblems(steps, 10001, nil)...) {
		if p != mainContainer+": requests missing or above the limits" { // the keepalive requests no CPU
			t.Error(p)
		}
	}
	if req := main.Resources.Requests.Cpu(); !req.IsZero() {
		t.Errorf("keepalive requests %s CPU, want none: the scheduler counts the spec's CPUs only", req)
	}
	if main.Stdin || steps.Stdin {
		t.Error("stdin open without OpenStdin")
	}
	if mem := main.Resources.Limits.Memory(); mem.Cmp(resource.MustParse("32Mi")) != 0 {
		t.Errorf("keepalive memory %s, want the idle 32Mi", mem)
	}
	if cpu, mem := steps.Resources.Limits.Cpu(), steps.Resources.Limits.Memory(); cpu.MilliValue() != 1500 || mem.Value() != 2<<30 {
		t.Errorf("steps limits cpu %s memory %s, want the spec's", cpu, mem)
	}
	want := append(append([]string{"/usr/bin/env", "-i"}, spec.Env...), spec.Cmd...)
	if !slices.Equal(main.Command, want) || !slices.Equal(steps.Command, want) {
		t.Errorf("commands %q and %q, want %q", main.Command, steps.Command, want)
	}
	if !slices.Equal(containerEnv(&steps), spec.Env) {
		t.Errorf("containerEnv = %q, want %q", containerEnv(&steps), spec.Env)
	}
	checkPod(t, pod, spec)
}

// What a pod cannot apply is refused, never dropped.
func TestPodForRefuses(t *testing.T) {
	for name, weaken := range map[string]func(*sandbox.ContainerSpec){
		"named user":          func(s *sandbox.ContainerSpec) { s.User = "sandbox" },
		"apparmor option":     func(s *sandbox.ContainerSpec) { s.SecurityOpt = append(s.SecurityOpt, "apparmor=unconfined") },
		"seccomp profile":     func(s *sandbox.ContainerSpec) { s.SecurityOpt = append(s.SecurityOpt, "seccomp=/etc/profile.json") },
		"noexec tmpfs":        func(s *sandbox.ContainerSpec) { s.Tmpfs["/tmp"] += ",noexec" },
		"bad tmpfs size":      func(s *sandbox.ContainerSpec) { s.Tmpfs["/tmp"] = "size=lots" },
		"invalid label key":   func(s *sandbox.ContainerSpec) { s.Labels["not a key"] = "x" },
		"driver's label key":  func(s *sandbox.ContainerSpec) { s.Labels[LabelNetwork] = "egress" },
		"non-numeric gid":     func(s *sandbox.ContainerSpec) { s.User = "10001:users" },
		"mode not octal":      func(s *sandbox.ContainerSpec) { s.Tmpfs["/tmp"] = "size=1k,mode=rwx" },
		"uid not numeric":     func(s *sandbox.ContainerSpec) { s.Tmpfs["/tmp"] = "size=1k,uid=sandbox" },
		"unknown tmpfs field": func(s *sandbox.ContainerSpec) { s.Tmpfs["/tmp"] = "size=1k,huge=always" },
	} {
		s := execSpec()
		weaken(&s)
		if _, err := podFor(s, testNS); err == nil {
			t.Errorf("%s: podFor accepted it", name)
		}
	}
}

// A network other than none is created with the egress label; Docker's
// unconfined seccomp is mapped, not dropped; sysctls other than the IPv6
// loopback's are the pod's.
func TestPodForNetworkAndSeccomp(t *testing.T) {
	s := execSpec()
	s.Network, s.SecurityOpt = "greenlight-egress-abc", []string{"seccomp=unconfined"}
	s.Sysctls["net.ipv4.ping_group_range"] = "1 0"
	pod, err := podFor(s, testNS)
	if err != nil {
		t.Fatal(err)
	}
	if sc := pod.Spec.SecurityContext.Sysctls; len(sc) != 1 || sc[0].Name != "net.ipv4.ping_group_range" || sc[0].Value != "1 0" {
		t.Errorf("sysctls %+v", sc)
	}
	if pod.Labels[LabelNetwork] != NetworkEgress {
		t.Errorf("network label %q, want egress", pod.Labels[LabelNetwork])
	}
	for _, c := range pod.Spec.Containers {
		if c.SecurityContext.SeccompProfile.Type != corev1.SeccompProfileTypeUnconfined || c.SecurityContext.AllowPrivilegeEscalation != nil {
			t.Errorf("%s: seccomp %v, allowPrivilegeEscalation %v; want Unconfined and unset", c.Name,
				c.SecurityContext.SeccompProfile.Type, c.SecurityContext.AllowPrivilegeEscalation)
		}
	}
}

func TestPodName(t *testing.T) {
	for _, name := range []string{"greenlight-run_ABC/1", "greenlight-pool-greenlight/sandbox-python:latest-x1y2", strings.Repeat("a_", 60), "___", "ok-name"} {
		got := podName(name)
		if errs := validation.IsDNS1123Label(got); len(errs) > 0 {
			t.Errorf("podName(%q) = %q: %v", name, got, errs)
		}
		if name == "ok-name" && got != name {
			t.Errorf("a valid name was changed: %q", got)
		}
	}
	if podName("run_A") == podName("run-a") {
		t.Error("two names differing in replaced characters map to one pod name")
	}
}

func TestTmpfsSize(t *testing.T) {
	for in, want := range map[string]int64{"1024": 1024, "4k": 4 << 10, "64m": 64 << 20, "2g": 2 << 30, "2G": 2 << 30} {
		if got, err := tmpfsSize(in); err != nil || got != want {
			t.Errorf("tmpfsSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1", "10%", "k"} {
		if _, err := tmpfsSize(in); err == nil {
			t.Errorf("tmpfsSize(%q) accepted", in)
		}
	}
}

func TestRequestsAreAFractionOfTheLimits(t *testing.T) {
	limits := corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse("1"),
		corev1.ResourceMemory: resource.MustParse("4Gi"),
	}
	req := requestsFor(limits)
	if got := req.Cpu().MilliValue(); got != 125 {
		t.Errorf("cpu request = %dm, want 125m (1 CPU / 8)", got)
	}
	if got := req.Memory().Value(); got != 1<<30 {
		t.Errorf("memory request = %d, want 1Gi (4Gi / 4)", got)
	}
	small := requestsFor(corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")})
	if got := small.Cpu().MilliValue(); got != 50 {
		t.Errorf("cpu request of a 100m limit = %dm, want the 50m floor", got)
	}
	tiny := requestsFor(corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("20m")})
	if got := tiny.Cpu().MilliValue(); got != 20 {
		t.Errorf("cpu request of a 20m limit = %dm, want 20m (never above the limit)", got)
	}
	if _, ok := requestsFor(corev1.ResourceList{})[corev1.ResourceCPU]; ok {
		t.Error("a request without a limit")
	}
}
