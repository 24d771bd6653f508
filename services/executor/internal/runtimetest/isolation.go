package runtimetest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// probe is a command run inside a sandbox, as a step, and what its output
// must be.
type probe struct {
	name, cmd string
	// check returns what is wrong with the probe's stdout, "" if nothing.
	check func(s *suite, out string) string
}

// equals expects the trimmed output want.
func equals(want string) func(*suite, string) string {
	return func(_ *suite, out string) string {
		if strings.TrimSpace(out) != want {
			return fmt.Sprintf("got %q, want %q", strings.TrimSpace(out), want)
		}
		return ""
	}
}

// zeroCaps is an empty capability set in /proc/PID/status.
const zeroCaps = "0000000000000000"

// probes are the kernel-level properties a step must see. The cgroup
// files are read at the v2 path, else the v1 one.
var probes = []probe{
	{"not-root", "id -u", func(_ *suite, out string) string {
		if u := strings.TrimSpace(out); u == "" || u == "0" {
			return fmt.Sprintf("uid %q", u)
		}
		return ""
	}},
	{"root-read-only", `awk '$2 == "/" { split($4, o, ","); print o[1] }' /proc/mounts | tail -n 1`, equals("ro")},
	{"no-writes-outside-tmpfs", `for d in / /etc /usr; do touch "$d/.greenlight-probe" 2>/dev/null && echo "wrote $d"; done; true`, equals("")},
	{"no-capabilities", `grep -E '^Cap(Eff|Prm|Amb|Bnd):' /proc/self/status | cut -f2 | sort -u`, equals(zeroCaps)},
	{"no-new-privileges", `grep '^NoNewPrivs:' /proc/self/status | cut -f2`, equals("1")},
	{"seccomp-filter", `grep '^Seccomp:' /proc/self/status | cut -f2`, equals("2")},
	{"memory-limit", `cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes`,
		func(s *suite, out string) string { return equals(strconv.FormatInt(s.exec.MemoryBytes, 10))(s, out) }},
	{"pids-limit", `cat /sys/fs/cgroup/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids/pids.max`,
		func(s *suite, out string) string { return equals(strconv.FormatInt(s.exec.PidsLimit, 10))(s, out) }},
	{"only-loopback", "ls /sys/class/net", equals("lo")},
	{"no-docker-socket", "ls -d /var/run/docker.sock /run/docker.sock 2>/dev/null; true", equals("")},
	{"no-service-account-token", "ls -d /var/run/secrets/kubernetes.io /run/secrets/kubernetes.io 2>/dev/null; true", equals("")},
}

// testIsolation runs the probes in an exec-mode sandbox of a test step,
// then the fork bomb in one of its own; only for drivers that isolate.
func testIsolation(t *testing.T, s *suite) {
	if !s.h.Isolates {
		t.Skip("the driver does not isolate (Harness.Isolates): nothing to probe from inside")
	}
	id := s.started(t)
	for _, p := range probes {
		t.Run(p.name, func(t *testing.T) {
			code, out, errOut := s.sh(t, id, p.cmd)
			why := ""
			if code != 0 {
				why = fmt.Sprintf("probe exited %d: %s", code, errOut)
			} else if w := p.check(s, out); w != "" {
				why = p.cmd + ": " + w
			}
			s.expect(t, p.name, why == "", why)
		})
	}
	t.Run("fork-bomb", func(t *testing.T) { testForkBomb(t, s) })
}

// testForkBomb: a step forking without end (bounded here at four times
// the limit) fails to fork before it reaches the pids limit, quickly, and
// the engine still answers for the container (ADVERSARIAL row 3).
func testForkBomb(t *testing.T, s *suite) {
	id := s.started(t)
	limit := s.exec.PidsLimit
	bomb := fmt.Sprintf(`n=0; while [ $n -lt %d ]; do sleep 60 >/dev/null 2>&1 & n=$((n+1)); echo $n; done`, 4*limit)
	start := time.Now()
	code, out, errOut := s.sh(t, id, bomb)
	took := time.Since(start)
	lines := strings.Fields(out)
	forked := 0
	if len(lines) > 0 {
		forked, _ = strconv.Atoi(lines[len(lines)-1])
	}
	ok := code != 0 && forked > 0 && int64(forked) < limit && took <= 20*time.Second
	s.expect(t, "fork-bomb", ok, fmt.Sprintf("fork bomb: exit %d after %s, %d forks (limit %d), stderr %q; "+
		"want a fork failure below the limit within 20 s", code, took, forked, limit, errOut))
	if _, err := s.h.Runtime.State(context.Background(), id); err != nil {
		t.Errorf("State after the fork bomb: %v", err)
	}
}
