package executorsvc

// The rows of shared/ADVERSARIAL.md, one test (or table entry) each, against
// the real engine through the real gRPC service. Every test's cleanup checks
// that no container of its owner is left (newEnv).

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// Row 1: a busy loop is TIMED_OUT at its limit and its container is gone
// when the RPC returns.
func TestBusyLoopTimesOut(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	start := time.Now()
	r := e.mustExecute(context.Background(), e.request(nil,
		timeout(sh("spin", "while :; do :; done"), 2*time.Second), sh("after", "true")))
	if got := r.result(0); got.GetStatus() != glv1.StepStatus_STEP_STATUS_TIMED_OUT || !strings.Contains(got.GetReason(), "timed out after 2s") {
		t.Errorf("spin: %s %q", statusOf(got), got.GetReason())
	}
	if got := r.result(1); got.GetStatus() != glv1.StepStatus_STEP_STATUS_SKIPPED || !strings.Contains(got.GetReason(), "timed out") {
		t.Errorf("after: %s %q", statusOf(got), got.GetReason())
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("run took %s for a 2s timeout", d)
	}
	if n := len(testenv.Containers(t, e.rt, e.owner)); n != 0 {
		t.Errorf("%d container(s) still exist when the RPC returned", n)
	}
}

// Row 2: a background process left behind (after a step that ended, and
// after one that timed out) does not survive the run.
func TestBackgroundProcessDoesNotSurviveTheRun(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	marker := fmt.Sprintf("%d", 1000000+time.Now().UnixNano()%1000000)
	r := e.mustExecute(context.Background(), e.request(nil,
		sh("leave", "sleep "+marker+" & echo left"),
		sh("check", `for f in /proc/[0-9]*/cmdline; do tr '\0' ' ' < $f; echo; done | grep -q "^sleep `+marker+`" && echo still-running`),
		timeout(sh("leave-and-hang", "sleep "+marker+"1 & while :; do :; done"), 2*time.Second),
	))
	if got := r.result(1).GetTail(); !strings.Contains(got, "still-running") {
		t.Errorf("the probe did not see the background process inside the run (test cannot fail): %q", got)
	}
	if got := r.result(2).GetStatus(); got != glv1.StepStatus_STEP_STATUS_TIMED_OUT {
		t.Errorf("leave-and-hang: %v", got)
	}
	e.svc.runner.Wait()
	if pids := hostProcesses(t, "sleep "+marker); len(pids) > 0 {
		t.Errorf("processes of the run survive on the host: %v", pids)
	}
}

// hostProcesses returns the host pids whose command line contains s (the
// sandbox's processes are visible in the host's /proc).
func hostProcesses(t *testing.T, s string) []string {
	t.Helper()
	matches, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var out []string
	for _, m := range matches {
		b, err := os.ReadFile(m)
		if err == nil && strings.Contains(strings.ReplaceAll(string(b), "\x00", " "), s) {
			out = append(out, filepath.Base(filepath.Dir(m)))
		}
	}
	return out
}

// Rows 3 and 4: a fork bomb and a flood of children stay within the pids
// limit, and the executor and the engine keep answering meanwhile.
func TestForkBombStaysWithinThePidsLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	done := make(chan *run, 1)
	go func() {
		done <- e.execute(context.Background(), smallLimits(e.request(nil,
			timeout(sh("children", manyChildren), 5*time.Second),
			&glv1.Step{Name: "bomb", Phase: glv1.Phase_PHASE_TEST, ContinueOnFailure: true,
				Command: `bomb() { bomb | bomb & }; bomb; sleep 30`, Timeout: durationpb.New(3 * time.Second)},
		)))
	}()
	time.Sleep(1500 * time.Millisecond)
	// Meanwhile: the engine answers, and another run completes.
	start := time.Now()
	if err := e.rt.Ping(context.Background()); err != nil || time.Since(start) > 3*time.Second {
		t.Errorf("engine ping during the bomb: %v after %s", err, time.Since(start))
	}
	other := e.mustExecute(context.Background(), e.request(nil, sh("ok", "echo fine")))
	if got := other.result(0); got.GetStatus() != glv1.StepStatus_STEP_STATUS_OK {
		t.Errorf("a concurrent run failed: %s %q", statusOf(got), got.GetTail())
	}
	r := <-done
	if r.err != nil || r.finished == nil {
		t.Fatalf("Execute: %v", r.err)
	}
	children := r.result(0)
	var procs int
	if _, err := fmt.Sscan(lastLine(children.GetTail()), &procs); err != nil || procs > 64 || procs < 32 ||
		!strings.Contains(children.GetTail(), "refused") {
		t.Errorf("processes in the sandbox: %q (want at most the pids limit 64)", children.GetTail())
	}
	if st := r.result(1).GetStatus(); st == glv1.StepStatus_STEP_STATUS_OK {
		t.Errorf("the fork bomb step passed")
	}
}

// manyChildren starts 300 children, counting those the kernel refused, and
// prints how many processes the sandbox holds.
const manyChildren = `python3 -c "
import os, subprocess
ok = refused = 0
for i in range(300):
    try:
        subprocess.Popen(['sleep', '60'])
        ok += 1
    except OSError:
        refused += 1
print('started', ok, 'refused', refused)
print(len([p for p in os.listdir('/proc') if p.isdigit()]))
"; exit 1`

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// Rows 5 and 6: a memory bomb, and two children that together exceed the
// limit, are OOM_KILLED and reported as such; the sandbox goes on.
func TestMemoryBombsAreOOMKilled(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	two := `python3 -c "import time; x = bytearray(80 << 20); time.sleep(3)" & a=$!
python3 -c "import time; x = bytearray(80 << 20); time.sleep(3)" & b=$!
wait $a && wait $b`
	req := smallLimits(e.request(nil,
		&glv1.Step{Name: "bomb", Phase: glv1.Phase_PHASE_TEST, ContinueOnFailure: true,
			Command: `python3 -c "x = bytearray(1 << 30); print('survived')"`},
		&glv1.Step{Name: "two-children", Phase: glv1.Phase_PHASE_TEST, ContinueOnFailure: true, Command: two},
		sh("fails-plainly", "exit 7"),
	))
	r := e.mustExecute(context.Background(), req)
	for i, want := range []glv1.StepStatus{glv1.StepStatus_STEP_STATUS_OOM_KILLED, glv1.StepStatus_STEP_STATUS_OOM_KILLED, glv1.StepStatus_STEP_STATUS_FAILED} {
		if got := r.result(i); got.GetStatus() != want {
			t.Errorf("step %d: %s exit %d %q, want %v", i, statusOf(got), got.GetExitCode(), got.GetReason(), want)
		}
	}
	if got := r.result(0); got.GetExitCode() != 137 || !strings.Contains(got.GetReason(), "OOM killer") {
		t.Errorf("bomb: exit %d reason %q", got.GetExitCode(), got.GetReason())
	}
}

// Row 7: filling /tmp, the home directory and the workspace ends in ENOSPC
// inside; the host's disk is not touched.
func TestFillingDisksHitsENOSPC(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	before := freeBytes(t, "/var/lib/docker")
	r := e.mustExecute(context.Background(), smallLimits(e.request(nil,
		&glv1.Step{Name: "tmp", Phase: glv1.Phase_PHASE_TEST, ContinueOnFailure: true, Command: "dd if=/dev/zero of=/tmp/fill bs=1M count=256"},
		&glv1.Step{Name: "home", Phase: glv1.Phase_PHASE_TEST, ContinueOnFailure: true, Command: "dd if=/dev/zero of=$HOME/fill bs=1M count=256"},
		&glv1.Step{Name: "workspace", Phase: glv1.Phase_PHASE_TEST, ContinueOnFailure: true, Command: "dd if=/dev/zero of=/workspace/fill bs=1M count=256"},
	)))
	for i := range 3 {
		got := r.result(i)
		if got.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED || !strings.Contains(got.GetTail(), "No space left on device") {
			t.Errorf("step %s: %s %q", got.GetName(), statusOf(got), got.GetTail())
		}
	}
	if after := freeBytes(t, "/var/lib/docker"); before-after > 128<<20 {
		t.Errorf("the host disk lost %d MiB", (before-after)>>20)
	}
}

func freeBytes(t *testing.T, dir string) int64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatalf("statfs %s: %v", dir, err)
	}
	return int64(st.Bavail) * st.Bsize
}

// Row 8: the root filesystem is read-only.
func TestRootFilesystemIsReadOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var steps []*glv1.Step
	for _, p := range []string{"/x", "/etc/x", "/usr/x", "/usr/lib/x"} {
		steps = append(steps, &glv1.Step{Name: "write" + strings.ReplaceAll(p, "/", "-"), Phase: glv1.Phase_PHASE_TEST,
			ContinueOnFailure: true, Command: "echo pwned >> " + p})
	}
	r := e.mustExecute(context.Background(), e.request(nil, steps...))
	for i := range steps {
		got := r.result(i)
		if got.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED || !strings.Contains(got.GetTail(), "Read-only file system") {
			t.Errorf("%s: %s %q", got.GetName(), statusOf(got), got.GetTail())
		}
	}
}

// Row 11: output printed without a newline before a hang is delivered, live
// and in the tail, with the timeout.
func TestPartialOutputBeforeAHangIsDelivered(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.mustExecute(context.Background(), e.request(nil, timeout(sh("hang", "printf 'partial line'; sleep 100"), 3*time.Second)))
	got := r.result(0)
	if got.GetStatus() != glv1.StepStatus_STEP_STATUS_TIMED_OUT || got.GetTail() != "partial line" || r.output(0) != "partial line" {
		t.Errorf("%s tail %q live %q", statusOf(got), got.GetTail(), r.output(0))
	}
	if log := e.readBlob(got.GetLogDigest()); log != "partial line" {
		t.Errorf("stored log %q", log)
	}
}

// Row 22: the Docker socket is not reachable.
func TestDockerSocketIsNotReachable(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.mustExecute(context.Background(), e.request(nil,
		sh("socket", "ls -l /var/run/docker.sock /run/docker.sock 2>&1; find / -xdev -name 'docker.sock' 2>/dev/null; echo end")))
	if got := r.result(0).GetTail(); !strings.Contains(got, "No such file") || strings.Contains(got, "srw") ||
		strings.Contains(got, "/docker.sock\n") {
		t.Errorf("socket probe: %q", got)
	}
}

// Row 27: reading /dev/random forever is TIMED_OUT.
func TestReadingDevRandomForeverTimesOut(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.mustExecute(context.Background(), e.request(nil, timeout(sh("random", "cat /dev/random > /dev/null"), 2*time.Second)))
	if got := r.result(0).GetStatus(); got != glv1.StepStatus_STEP_STATUS_TIMED_OUT {
		t.Errorf("status %v", got)
	}
}

// Row 9: `yes` forever: the executor's memory stays bounded, the stored log
// is capped and marked truncated, and live events keep flowing.
func TestOutputFloodIsBounded(t *testing.T) {
	e := newEnv(t)
	stop := make(chan struct{})
	peak := make(chan uint64, 1)
	go func() {
		var max uint64
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			max = maxU(max, ms.HeapInuse)
			select {
			case <-stop:
				peak <- max
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	r := e.mustExecute(context.Background(), e.request(nil, timeout(sh("yes", "yes"), 6*time.Second)))
	close(stop)
	heap := <-peak
	got := r.result(0)
	if got.GetStatus() != glv1.StepStatus_STEP_STATUS_TIMED_OUT || !got.GetTruncated() || got.GetOutputBytes() < 100<<20 {
		t.Errorf("%s truncated=%v output=%d", statusOf(got), got.GetTruncated(), got.GetOutputBytes())
	}
	if heap > 64<<20 {
		t.Errorf("executor heap peaked at %d MiB while the sandbox printed %d MiB", heap>>20, got.GetOutputBytes()>>20)
	}
	t.Logf("printed %d MiB; executor heap peak %d MiB", got.GetOutputBytes()>>20, heap>>20)
	if log := e.readBlob(got.GetLogDigest()); len(log) < 4<<20 || len(log) > 4<<20+256 || !strings.Contains(log, "output truncated") {
		t.Errorf("stored log of %d bytes", len(log))
	}
	// Live output stops at the per-step cap: what was streamed is at most
	// the cap, and one system note says where the live stream stopped.
	var live int
	note := false
	for _, ev := range r.events {
		c := ev.GetLogChunk()
		if c == nil {
			continue
		}
		if c.GetStream() == glv1.Stream_STREAM_SYSTEM {
			note = note || strings.Contains(c.GetData(), "live output stops")
			continue
		}
		live += len(c.GetData())
	}
	if live == 0 || live > 4<<20 || !note {
		t.Errorf("streamed %d bytes live (cap 4 MiB), stop note sent: %v", live, note)
	}
}

func maxU(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}
