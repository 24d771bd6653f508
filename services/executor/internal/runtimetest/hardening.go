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
func hardeningProblems(s sandbox.ContainerSpec, runner bool) []problem {
	var p []problem
	add := func(check string, ok bool, format string, args ...any) {
		if !ok {
			p = append(p, problem{check, fmt.Sprintf(format, args...)})
		}
	}
	if runner {
		add("runner-main", len(s.Entrypoint) > 0 && s.Entrypoint[0] == runnerproto.Path, "the root main process is not the runner: %q", s.Entrypoint)
		add("capabilities-added", sameSet(s.CapAdd, runnerCaps), "capabilities added %q, want exactly %q", s.CapAdd, runnerCaps)
	} else {
		add("not-root", !isRoot(s.User), "user %q is root", s.User)
		add("capabilities-added", len(s.CapAdd) == 0, "capabilities added: %q", s.CapAdd)
	}
	add("read-only-root", s.ReadonlyRootfs, "the root filesystem is writable")
	add("capabilities-dropped", slices.ContainsFunc(s.CapDrop, func(c string) bool { return strings.EqualFold(c, "ALL") }), "not all capabilities dropped: %q", s.CapDrop)
	add("no-new-privileges", slices.ContainsFunc(s.SecurityOpt, isNoNewPrivs), "no no-new-privileges in %q", s.SecurityOpt)
	add("confined", !slices.ContainsFunc(s.SecurityOpt, isUnconfined), "an unconfined security option in %q", s.SecurityOpt)
	add("pids-limit", s.PidsLimit > 0, "no pids limit (%d)", s.PidsLimit)
	add("memory-limit", s.MemoryBytes > 0, "no memory limit (%d)", s.MemoryBytes)
	add("cpu-limit", s.NanoCPUs > 0, "no CPU limit (%d)", s.NanoCPUs)
	add("init", s.Init, "no init process to reap orphans")
	add("no-network", s.Network == "", "a test step's sandbox is on network %q, want none", s.Network)
	add("tmpfs", len(s.Tmpfs) > 0, "no tmpfs mounts")
	for dir, opts := range s.Tmpfs {
		add("tmpfs-size", tmpfsSize.MatchString(opts), "tmpfs %s has no size cap: %q", dir, opts)
		add("tmpfs-nosuid-nodev", strings.Contains(opts, "nosuid") && strings.Contains(opts, "nodev"), "tmpfs %s is not nosuid,nodev: %q", dir, opts)
	}
	add("no-docker-env", !slices.ContainsFunc(s.Env, func(kv string) bool { return strings.HasPrefix(kv, "DOCKER_") }), "a DOCKER_ variable in the environment")
	return p
}

// appliedProblems is hardeningProblems of what the engine applied, plus
// what only the engine can add.
func appliedProblems(a Applied, runner bool) []problem {
	p := hardeningProblems(a.Spec, runner)
	if len(a.HostPaths) > 0 {
		p = append(p, problem{"no-host-paths", fmt.Sprintf("host paths mounted: %q", a.HostPaths)})
	}
	if a.Privileged {
		p = append(p, problem{"not-privileged", "privileged"})
	}
	return p
}

// problem is one way a spec falls short: the check (a stable name, for
// Harness.KnownGaps) and what is wrong.
type problem struct{ check, msg string }

func (p problem) String() string { return p.check + ": " + p.msg }

// messages are the problems as text.
func messages(ps []problem) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
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
			// What the engine applied may fall short where it has no
			// way to say it (a driver's KnownGaps, "hardened-spec/MODE/
			// applied/CHECK"); what the sandbox asked for may not.
			s.expectAll(t, mode.name+"/applied/", appliedProblems(a, mode.runner))
		})
	}
}
