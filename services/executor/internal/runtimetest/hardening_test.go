package runtimetest

import (
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// hardened is a spec that passes every hardening check (exec mode).
func hardened() sandbox.ContainerSpec {
	return sandbox.ContainerSpec{
		User: "65534:65534", ReadonlyRootfs: true, CapDrop: []string{"ALL"}, SecurityOpt: []string{"no-new-privileges"},
		PidsLimit: 256, MemoryBytes: 2 << 30, NanoCPUs: 1e9, Init: true,
		Tmpfs: map[string]string{"/tmp": "rw,nosuid,nodev,size=1024,mode=1777"},
		Env:   []string{"PATH=/bin"},
	}
}

// Each weakening of a hardened spec is reported, naming what is wrong: the
// suite's checks can fail.
func TestHardeningProblemsFindEachWeakening(t *testing.T) {
	if p := messages(hardeningProblems(hardened(), false)); len(p) != 0 {
		t.Fatalf("a hardened spec has problems: %q", p)
	}
	for _, tc := range []struct {
		name, want string
		weaken     func(*sandbox.ContainerSpec)
	}{
		{"root user", "is root", func(s *sandbox.ContainerSpec) { s.User = "0:0" }},
		{"no user", "is root", func(s *sandbox.ContainerSpec) { s.User = "" }},
		{"capability added", "capabilities added", func(s *sandbox.ContainerSpec) { s.CapAdd = []string{"NET_RAW"} }},
		{"writable root", "writable", func(s *sandbox.ContainerSpec) { s.ReadonlyRootfs = false }},
		{"capabilities kept", "not all capabilities dropped", func(s *sandbox.ContainerSpec) { s.CapDrop = []string{"NET_RAW"} }},
		{"new privileges", "no-new-privileges", func(s *sandbox.ContainerSpec) { s.SecurityOpt = nil }},
		{"no seccomp", "unconfined", func(s *sandbox.ContainerSpec) { s.SecurityOpt = append(s.SecurityOpt, "seccomp=unconfined") }},
		{"no pids limit", "pids", func(s *sandbox.ContainerSpec) { s.PidsLimit = 0 }},
		{"no memory limit", "memory", func(s *sandbox.ContainerSpec) { s.MemoryBytes = 0 }},
		{"no cpu limit", "CPU", func(s *sandbox.ContainerSpec) { s.NanoCPUs = 0 }},
		{"no init", "init", func(s *sandbox.ContainerSpec) { s.Init = false }},
		{"network", "network", func(s *sandbox.ContainerSpec) { s.Network = "bridge" }},
		{"no tmpfs", "no tmpfs", func(s *sandbox.ContainerSpec) { s.Tmpfs = nil }},
		{"unsized tmpfs", "size cap", func(s *sandbox.ContainerSpec) { s.Tmpfs["/tmp"] = "rw,nosuid,nodev" }},
		{"suid tmpfs", "nosuid", func(s *sandbox.ContainerSpec) { s.Tmpfs["/tmp"] = "rw,size=1024" }},
		{"docker env", "DOCKER_", func(s *sandbox.ContainerSpec) { s.Env = append(s.Env, "DOCKER_HOST=unix:///x") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := hardened()
			tc.weaken(&s)
			if p := strings.Join(messages(hardeningProblems(s, false)), "; "); !strings.Contains(p, tc.want) {
				t.Errorf("problems %q do not name %q", p, tc.want)
			}
		})
	}
}

// A runner-mode spec may run as root with exactly the runner's
// capabilities, however the engine spells them, and nothing more; what an
// engine adds (host mounts, privileged) is reported.
func TestRunnerAndAppliedProblems(t *testing.T) {
	s := hardened()
	s.User, s.Entrypoint, s.CapAdd = "0:0", []string{"/usr/local/libexec/greenlight/runner"}, []string{"CAP_KILL", "CAP_SETGID", "CAP_SETUID"}
	if p := messages(hardeningProblems(s, true)); len(p) != 0 {
		t.Errorf("the runner's spec has problems: %q", p)
	}
	s.CapAdd = append(s.CapAdd, "SYS_ADMIN")
	if p := strings.Join(messages(hardeningProblems(s, true)), "; "); !strings.Contains(p, "capabilities added") {
		t.Errorf("an extra capability not reported: %q", p)
	}
	a := Applied{Spec: hardened(), HostPaths: []string{"/var/run/docker.sock"}, Privileged: true}
	if p := strings.Join(messages(appliedProblems(a, false)), "; "); !strings.Contains(p, "docker.sock") || !strings.Contains(p, "privileged") {
		t.Errorf("applied problems %q miss the host mount or privileged", p)
	}
}
