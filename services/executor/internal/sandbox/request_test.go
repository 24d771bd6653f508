package sandbox

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestBatchesGroupAdjacentSteps(t *testing.T) {
	steps := []Step{
		{Name: "install", Install: true, Network: true, Group: "g"},
		{Name: "test", Group: "check"},
		{Name: "lint", Group: "check"},
		{Name: "build"},
		{Name: "a", Group: "x"},
		{Name: "b", Group: "x", Image: "other"},
		{Name: "c", Group: "x", Image: "other"},
	}
	got := batches(steps)
	want := [][]int{{0}, {1, 2}, {3}, {4}, {5, 6}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("batches = %v, want %v", got, want)
	}
}

func TestRequestValidation(t *testing.T) {
	ok := func() Request {
		return Request{RunID: "r", Image: "img", Steps: []Step{{Name: "a", Command: "true"}}}
	}
	cases := []struct {
		name string
		edit func(*Request)
		want string
	}{
		{"valid", func(*Request) {}, ""},
		{"no steps", func(r *Request) { r.Steps = nil }, "no steps"},
		{"bad name", func(r *Request) { r.Steps[0].Name = "../x" }, "name must match"},
		{"empty command", func(r *Request) { r.Steps[0].Command = " " }, "command is empty"},
		{"absolute workdir", func(r *Request) { r.Steps[0].Workdir = "/etc" }, "absolute"},
		{"escaping workdir", func(r *Request) { r.Steps[0].Workdir = "a/../../b" }, "leaves the workspace"},
		{"network outside install", func(r *Request) { r.Steps[0].Network = true }, "only install steps"},
		{"bad env", func(r *Request) { r.Steps[0].Env = map[string]string{"A=B": "x"} }, "not a valid variable name"},
		{"escaping cache path", func(r *Request) { r.Steps[0].CachePaths = []string{"../x"} }, "cache path"},
		{"no image", func(r *Request) { r.Image = "" }, "no image"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := ok()
			tc.edit(&r)
			err := r.validate()
			if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("validate() = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestLimitsDefaultAndClamp(t *testing.T) {
	c := DefaultConfig()
	got := c.resolve(Limits{CPUs: 64, MemoryBytes: 1 << 20, Pids: -1, RunTimeout: 10 * time.Hour})
	if got.CPUs != c.Max.CPUs || got.MemoryBytes != 1<<20 || got.Pids != DefaultPids || got.RunTimeout != c.Max.RunTimeout ||
		got.WorkspaceBytes != DefaultWorkspaceBytes {
		t.Errorf("resolve = %+v", got)
	}
}

func TestHardenedSpec(t *testing.T) {
	lim := DefaultConfig().Defaults
	for _, runner := range []bool{false, true} {
		s := hardenedSpec("img", lim, map[string]string{"k": "v"}, "", []string{"PATH=/bin"}, runner, time.Minute)
		switch {
		case !s.ReadonlyRootfs, !s.Init, s.User == SandboxUser, s.Network != "",
			!slices.Equal(s.CapDrop, []string{"ALL"}), !slices.Contains(s.SecurityOpt, "no-new-privileges"),
			s.MemoryBytes != DefaultMemoryBytes, s.PidsLimit != DefaultPids, s.NanoCPUs != 1e9:
			t.Errorf("runner=%v: spec not hardened: %+v", runner, s)
		}
		for _, m := range []string{TmpDir, HomeDir, WorkspaceDir} {
			if o := s.Tmpfs[m]; !strings.Contains(o, "nosuid") || !strings.Contains(o, "nodev") || !strings.Contains(o, "size=") {
				t.Errorf("runner=%v: tmpfs %s: %q", runner, m, o)
			}
		}
		// The IPv6 loopback only: "all" and "default" stay disabled, so
		// no other interface ever gets an IPv6 address.
		if !maps.Equal(s.Sysctls, map[string]string{"net.ipv6.conf.lo.disable_ipv6": "0"}) {
			t.Errorf("runner=%v: sysctls %v, want the loopback's IPv6 alone", runner, s.Sysctls)
		}
		// Without the runner nothing is added back and nothing runs as
		// root; with it, exactly the runner's three capabilities for the
		// main process, the runner, whose stdin stays open for the
		// executor's attachment (and closes with it).
		wantCaps, wantUser := []string(nil), keepaliveUser
		if runner {
			wantCaps, wantUser = []string{"SETUID", "SETGID", "KILL"}, "0:0"
		}
		if !slices.Equal(s.CapAdd, wantCaps) || s.User != wantUser {
			t.Errorf("runner=%v: caps %v user %q", runner, s.CapAdd, s.User)
		}
		if runner && (!slices.Equal(s.Entrypoint, []string{"/usr/local/libexec/greenlight/runner"}) ||
			!slices.Equal(s.Cmd, []string{"serve", "60"}) || !s.OpenStdin) {
			t.Errorf("runner main process: %v %v, open stdin %v", s.Entrypoint, s.Cmd, s.OpenStdin)
		}
		if !runner && s.OpenStdin {
			t.Errorf("a sandbox without the runner has its stdin open")
		}
		// The main process ends at the deadline (a minute here).
		if !runner && !strings.Contains(strings.Join(s.Cmd, " "), "sleep 60 & wait") {
			t.Errorf("keepalive without a deadline: %v", s.Cmd)
		}
	}
}

func TestAdjustSpecDropsTheIPv6LoopbackWhenTheEngineHasNoIPv6(t *testing.T) {
	for _, tc := range []struct {
		name    string
		network string
		off     bool
		want    int
	}{
		{"no network", "", false, 1},
		{"install network", "greenlight-egress-x", false, 1},
		{"host network refuses net.* sysctls", "host", false, 0},
		{"engine without IPv6", "", true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.NoLoopbackIPv6 = tc.off
			s := hardenedSpec("img", cfg.Defaults, nil, tc.network, nil, false, time.Minute)
			cfg.adjustSpec(&s)
			if len(s.Sysctls) != tc.want {
				t.Errorf("sysctls %v, want %d", s.Sysctls, tc.want)
			}
		})
	}
}

func TestStartErrorNamesTheFlagWhenTheKernelHasNoIPv6(t *testing.T) {
	runc := errors.New("container start: OCI runtime create failed: open /proc/sys/net/ipv6/conf/lo/disable_ipv6: no such file or directory")
	if got := startError(runc); !errors.Is(got, runc) || !strings.Contains(got.Error(), "--ipv6-loopback=false") {
		t.Errorf("startError = %v", got)
	}
	other := errors.New("container start: no such image")
	if got := startError(other); got != other {
		t.Errorf("startError changed an unrelated error: %v", got)
	}
}
