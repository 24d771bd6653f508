package runtimetest

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// runnerCaps are the only capabilities a runner-mode sandbox may add
// (sandbox.runnerCaps): the runner needs them, as root, to start steps as
// the sandbox user and kill their process groups.
var runnerCaps = []string{"SETUID", "SETGID", "KILL"}

// tmpfsSize is a positive size option of a tmpfs mount.
var tmpfsSize = regexp.MustCompile(`(^|,)size=[1-9][0-9]*[kmg]?(,|$)`)

// hardeningProblems lists how spec, the spec of a test step's sandbox,
// falls short of the sandbox's confinement; runner says its main process
// is greenlight-runner, which alone runs as root with runnerCaps.
func hardeningProblems(s sandbox.ContainerSpec, runner bool) []string {
	var p []string
	add := func(ok bool, format string, args ...any) {
		if !ok {
			p = append(p, fmt.Sprintf(format, args...))
		}
	}
	if runner {
		add(len(s.Entrypoint) > 0 && s.Entrypoint[0] == runnerproto.Path, "the root main process is not the runner: %q", s.Entrypoint)
		add(sameSet(s.CapAdd, runnerCaps), "capabilities added %q, want exactly %q", s.CapAdd, runnerCaps)
	} else {
		add(!isRoot(s.User), "user %q is root", s.User)
		add(len(s.CapAdd) == 0, "capabilities added: %q", s.CapAdd)
	}
	add(s.ReadonlyRootfs, "the root filesystem is writable")
	add(slices.ContainsFunc(s.CapDrop, func(c string) bool { return strings.EqualFold(c, "ALL") }), "not all capabilities dropped: %q", s.CapDrop)
	add(slices.ContainsFunc(s.SecurityOpt, isNoNewPrivs), "no no-new-privileges in %q", s.SecurityOpt)
	add(!slices.ContainsFunc(s.SecurityOpt, isUnconfined), "an unconfined security option in %q", s.SecurityOpt)
	add(s.PidsLimit > 0, "no pids limit (%d)", s.PidsLimit)
	add(s.MemoryBytes > 0, "no memory limit (%d)", s.MemoryBytes)
	add(s.NanoCPUs > 0, "no CPU limit (%d)", s.NanoCPUs)
	add(s.Init, "no init process to reap orphans")
	add(s.Network == "", "a test step's sandbox is on network %q, want none", s.Network)
	add(len(s.Tmpfs) > 0, "no tmpfs mounts")
	for dir, opts := range s.Tmpfs {
		add(tmpfsSize.MatchString(opts), "tmpfs %s has no size cap: %q", dir, opts)
		add(strings.Contains(opts, "nosuid") && strings.Contains(opts, "nodev"), "tmpfs %s is not nosuid,nodev: %q", dir, opts)
	}
	add(!slices.ContainsFunc(s.Env, func(kv string) bool { return strings.HasPrefix(kv, "DOCKER_") }), "a DOCKER_ variable in the environment")
	return p
}

// appliedProblems is hardeningProblems of what the engine applied, plus
// what only the engine can add.
func appliedProblems(a Applied, runner bool) []string {
	p := hardeningProblems(a.Spec, runner)
	if len(a.HostPaths) > 0 {
		p = append(p, fmt.Sprintf("host paths mounted: %q", a.HostPaths))
	}
	if a.Privileged {
		p = append(p, "privileged")
	}
	return p
}

func isRoot(user string) bool {
	u, _, _ := strings.Cut(user, ":")
	return u == "" || u == "0" || u == "root"
}

func isNoNewPrivs(opt string) bool {
	return opt == "no-new-privileges" || opt == "no-new-privileges:true" || opt == "no-new-privileges=true"
}

func isUnconfined(opt string) bool {
	return strings.HasSuffix(opt, "=unconfined") || strings.HasSuffix(opt, ":unconfined")
}

// sameSet compares capability sets whatever their spelling ("KILL",
// "CAP_KILL", "cap_kill": engines normalise them).
func sameSet(a, b []string) bool {
	norm := func(caps []string) []string {
		out := make([]string, len(caps))
		for i, c := range caps {
			out[i] = strings.TrimPrefix(strings.ToUpper(c), "CAP_")
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	return slices.Equal(norm(a), norm(b))
}

// testHardenedSpec: the specs production creates sandboxes with are
// hardened as received, and as applied when the harness reads them back.
func testHardenedSpec(t *testing.T, s *suite) {
	for _, mode := range []struct {
		name   string
		spec   sandbox.ContainerSpec
		runner bool
	}{{"exec", s.exec, false}, {"runner", s.runner, true}} {
		t.Run(mode.name, func(t *testing.T) {
			for _, p := range hardeningProblems(mode.spec, mode.runner) {
				t.Errorf("received spec: %s", p)
			}
			if s.h.Applied == nil {
				return
			}
			id := s.create(t, like(mode.spec, testenv.Owner(t)))
			a, err := s.h.Applied(context.Background(), id)
			if err != nil {
				t.Fatalf("reading the applied spec: %v", err)
			}
			for _, p := range appliedProblems(a, mode.runner) {
				t.Errorf("applied: %s", p)
			}
		})
	}
}
