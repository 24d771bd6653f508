package sandbox

import (
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
		// Without the runner nothing is added back and nothing runs as
		// root; with it, exactly the runner's three capabilities, and the
		// main process is the runner's keepalive, which drops root.
		wantCaps, wantUser := []string(nil), keepaliveUser
		if runner {
			wantCaps, wantUser = []string{"SETUID", "SETGID", "KILL"}, "0:0"
		}
		if !slices.Equal(s.CapAdd, wantCaps) || s.User != wantUser {
			t.Errorf("runner=%v: caps %v user %q", runner, s.CapAdd, s.User)
		}
		if runner && (!slices.Equal(s.Entrypoint, []string{"/usr/local/libexec/greenlight/runner"}) ||
			!slices.Equal(s.Cmd, []string{"keepalive", keepaliveUser, "60"})) {
			t.Errorf("runner keepalive: %v %v", s.Entrypoint, s.Cmd)
		}
		// The main process ends at the deadline (a minute here).
		if !runner && !strings.Contains(strings.Join(s.Cmd, " "), "sleep 60 & wait") {
			t.Errorf("keepalive without a deadline: %v", s.Cmd)
		}
	}
}
