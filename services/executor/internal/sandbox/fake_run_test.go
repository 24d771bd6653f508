package sandbox_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// A pipeline runs end to end in both step runner modes: the snapshot is
// unpacked, the steps see it and the sandbox's environment, their output
// and statuses are reported, and a failure skips what follows.
func TestFakeRunPipeline(t *testing.T) {
	for _, tc := range []struct {
		name, image string
		runner      bool
	}{
		{"runner", fakeRunnerImage, true},
		{"exec", fakePlainImage, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, nil)
			files := map[string]testenv.File{"src/app.txt": {Body: "app\n"}}
			req := f.request(tc.image, files,
				step("read", "cat src/app.txt; echo err >&2"),
				sandbox.Step{Name: "env", Command: `echo "$CI $LANG $FOO"; test "$HOME" = /home/sandbox && test -d "$TMPDIR"`, Env: map[string]string{"FOO": "bar"}},
				step("fail", "exit 3"),
				step("never", "echo never"))
			res, ev := f.run(context.Background(), req)
			want := []sandbox.Status{sandbox.StatusOK, sandbox.StatusOK, sandbox.StatusFailed, sandbox.StatusSkipped}
			if got := statuses(res); !slices.Equal(got, want) {
				t.Fatalf("statuses = %v, want %v (reasons %q, %q)", got, want, res.Steps[0].Reason, res.Steps[2].Reason)
			}
			if out := ev.text(0, sandbox.StreamStdout); out != "app\n" {
				t.Errorf("stdout of read = %q", out)
			}
			if out := ev.text(0, sandbox.StreamStderr); out != "err\n" {
				t.Errorf("stderr of read = %q", out)
			}
			if out := ev.text(1, sandbox.StreamStdout); out != "true C.UTF-8 bar\n" {
				t.Errorf("stdout of env = %q", out)
			}
			if res.Steps[2].ExitCode != 3 || !strings.Contains(res.Steps[3].Reason, `step "fail" failed`) {
				t.Errorf("fail exit %d, never's reason %q", res.Steps[2].ExitCode, res.Steps[3].Reason)
			}
			// stdout and stderr come through two pipes: their order is not kept.
			if log := f.log(res.Steps[0].LogDigest); len(log) != len("app\nerr\n") || !strings.Contains(log, "app\n") || !strings.Contains(log, "err\n") {
				t.Errorf("stored log = %q", log)
			}
			procs := stepProcs(f.eng)
			if p, ok := procs["exit 3"]; !ok || p.Runner != tc.runner || p.User != sandbox.SandboxUser || p.Dir != sandbox.WorkspaceDir {
				t.Errorf("the failing step ran as %+v", p)
			}
			if res.Manifest.Platform.EngineVersion != "fake" || res.Manifest.Platform.Image != tc.image {
				t.Errorf("platform = %+v", res.Manifest.Platform)
			}
		})
	}
}

// Every sandbox is created hardened: the one place that decides it
// (hardenedSpec) reaches the engine unchanged.
func TestFakeSpecIsHardened(t *testing.T) {
	f := newFake(t, nil)
	req := f.request(fakeRunnerImage, nil, step("a", "true"))
	req.Limits = sandbox.Limits{CPUs: 2, MemoryBytes: 1 << 30, Pids: 100, TmpfsBytes: 64 << 20, HomeBytes: 128 << 20, WorkspaceBytes: 256 << 20}
	f.run(context.Background(), req)
	specs := f.eng.Specs()
	if len(specs) != 1 {
		t.Fatalf("%d containers created, want 1", len(specs))
	}
	s := specs[0]
	checks := []struct {
		what string
		ok   bool
	}{
		{"read-only root", s.ReadonlyRootfs},
		{"all capabilities dropped", slices.Equal(s.CapDrop, []string{"ALL"})},
		{"only the runner's capabilities", slices.Equal(s.CapAdd, []string{"SETUID", "SETGID", "KILL"})},
		{"no-new-privileges", slices.Contains(s.SecurityOpt, "no-new-privileges")},
		{"init", s.Init},
		{"no network", s.Network == ""},
		{"cpus", s.NanoCPUs == 2e9},
		{"memory", s.MemoryBytes == 1<<30},
		{"pids", s.PidsLimit == 100},
		{"tmp size", strings.Contains(s.Tmpfs[sandbox.TmpDir], "size=67108864") && strings.Contains(s.Tmpfs[sandbox.TmpDir], "nosuid")},
		{"home size", strings.Contains(s.Tmpfs[sandbox.HomeDir], "size=134217728,mode=0755,uid=10001")},
		{"workspace size", strings.Contains(s.Tmpfs[sandbox.WorkspaceDir], "size=268435456")},
		{"runner main process", slices.Equal(s.Entrypoint, []string{runnerproto.Path}) && s.OpenStdin},
		{"labels", s.Labels[sandbox.LabelRun] == req.RunID && s.Labels[sandbox.LabelOwner] == "owner-1" && s.Labels[sandbox.LabelHost] == "fake-host"},
		{"ipv6 loopback", s.Sysctls["net.ipv6.conf.lo.disable_ipv6"] == "0"},
		{"env", slices.Contains(s.Env, "HOME=/home/sandbox") && slices.Contains(s.Env, "CI=true")},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: spec %+v", c.what, s)
		}
	}
}
