package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// cpuQuotaStep passes only when the sandbox's CFS quota is 1.5 CPUs
// (cgroup v2 cpu.max "150000 100000", v1 cpu.cfs_quota_us "150000").
const cpuQuotaStep = `q=$(cat /sys/fs/cgroup/cpu.max 2>/dev/null || cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us); echo "cpu quota: $q"; ` +
	`case "$q" in 150000*) exit 0;; esac; exit 1`

// TestRepositoryLimitsReachTheSandbox: greenlight.yaml `limits: {cpus:
// 1.5}` becomes the container's CPU quota (1.5 is neither the standalone
// default of 1 nor the embedded default of the host's CPUs), and a request
// beyond the maximum is refused before anything runs, exit 2, naming the
// file, line, key, value and maximum.
func TestRepositoryLimitsReachTheSandbox(t *testing.T) {
	requireDocker(t)
	if runtime.NumCPU() < 2 {
		t.Skip("needs a host with at least 2 CPUs to ask for 1.5")
	}
	u := newUser(t)
	dir := t.TempDir()
	write := func(yaml string) {
		for name, body := range map[string]string{"go.mod": "module x\n\ngo 1.22\n", "greenlight.yaml": yaml} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write("limits:\n  cpus: 1.5\nsteps:\n  - name: quota\n    phase: smoke\n    command: '" + cpuQuotaStep + "'\n")
	r := u.run(nil, "verify", dir)
	r.wantExit(t, 0, "verify with limits.cpus 1.5")

	write("version: 1\nlimits:\n  cpus: 64\nsteps:\n  - name: quota\n    phase: smoke\n    command: 'true'\n")
	r = u.run(nil, "verify", dir)
	r.wantExit(t, 2, "verify with limits.cpus 64")
	for _, want := range []string{"greenlight.yaml:3: limits.cpus: asks for 64, above the server's maximum of", "--max-cpus"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}
