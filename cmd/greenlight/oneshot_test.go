package main

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A one-shot verify creates the egress network (and its chains) only for
// a run with an install step that has network, before that step's sandbox
// is created, and removes it before the process exits; a run without one
// makes no network call at all (issue 25: creating and removing them took
// 0.35 s of a one-step verify that never used them). The filter itself is
// TestEgressOnDemand's (executorsvc).
func TestOneShotCreatesTheEgressNetworkOnlyForAStepWithNetwork(t *testing.T) {
	requireDocker(t)
	if err := exec.Command("iptables", "-w", "5", "-S", "DOCKER-USER").Run(); err != nil {
		t.Skipf("this host cannot apply the egress policy (iptables -S DOCKER-USER: %v): install steps get the plain bridge", err)
	}
	rec := newEngineRecorder(t)
	cases := []struct {
		name        string
		yaml        string
		wantNetwork bool
	}{
		{name: "test step only", yaml: oneStepProject["greenlight.yaml"]},
		{name: "install step with network", wantNetwork: true, yaml: "version: 1\nsteps:\n" +
			"  - name: deps\n    command: \"true\"\n    phase: install\n" +
			"  - name: check\n    command: \"true\"\n    phase: test\n"},
	}
	home := t.TempDir()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "greenlight.yaml"), []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			rec.reset()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "verify", "-q", dir)
			cmd.Env = []string{"GREENLIGHT_HOME=" + home, "HOME=" + home, "PATH=" + os.Getenv("PATH"), "DOCKER_HOST=" + rec.host}
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("greenlight verify: %v\n%s", err, out)
			}
			var creates, removes []engineCall
			var firstBox *engineCall
			calls := rec.recorded()
			for i, c := range calls {
				switch {
				case strings.HasSuffix(c.path, "/networks/create"):
					creates = append(creates, c)
				case c.method == http.MethodDelete && strings.Contains(c.path, "/networks/greenlight-egress-"):
					removes = append(removes, c)
				case strings.HasSuffix(c.path, "/containers/create") && firstBox == nil:
					firstBox = &calls[i]
				}
			}
			if !tc.wantNetwork {
				if len(creates)+len(removes) != 0 {
					t.Fatalf("a run without network created %d and removed %d networks", len(creates), len(removes))
				}
				return
			}
			if len(creates) != 1 || len(removes) != 1 {
				t.Fatalf("a run with an install step created %d and removed %d egress networks, want 1 and 1", len(creates), len(removes))
			}
			if firstBox == nil || creates[0].end.After(firstBox.start) {
				t.Errorf("the egress network was not in place before the install step's sandbox was created")
			}
		})
	}
}
