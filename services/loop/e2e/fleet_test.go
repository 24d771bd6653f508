package e2e_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/server/servertest"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
	"github.com/greenlight-dev/greenlight/services/loop/loopsvc"
)

// extraEngine starts (or finds) a second Docker engine with its own data
// root, exec root, socket and bridge (scripts/extra-engine.sh), loads the
// Python sandbox image into it and returns its DOCKER_HOST.
func extraEngine(t testing.TB, name string) string {
	t.Helper()
	script := filepath.Join("..", "..", "..", "scripts", "extra-engine.sh")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "bash", script, "start", name).Output()
	if err != nil {
		t.Fatalf("a second Docker engine could not start (%s start %s): %v\n%s", script, name, err, exitStderr(err))
	}
	host := strings.TrimSpace(string(out))
	// Leave the machine as it was: the engine goes when the test does.
	t.Cleanup(func() { _ = exec.Command("bash", script, "stop", name).Run() })
	if out, err := exec.CommandContext(ctx, "bash", script, "load", name, pythonImage).CombinedOutput(); err != nil {
		t.Fatalf("loading %s into the second engine: %v\n%s", pythonImage, err, out)
	}
	return host
}

func exitStderr(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}

// sleepyCalc is the passing calc project with a test that takes a while, so
// verifications overlap and one can be interrupted mid-run.
func sleepyCalc(seconds string) map[string]string {
	files := fixedCalc()
	files["tests/test_sleep.py"] = "import time\n\n\ndef test_slow():\n    time.sleep(" + seconds + ")\n"
	return files
}

// fleetStack is a loop over one executor per Docker engine.
type fleetStack struct {
	*stack
	execs []*servertest.Process
}

// newFleetStack starts discovery, an executor on each engine (""
// is the default engine) and one loop over all of them.
func newFleetStack(t testing.TB, engines []string, execArgs ...string) *fleetStack {
	t.Helper()
	dataDir := t.TempDir()
	blobDir := filepath.Join(dataDir, "blobs")
	if err := os.MkdirAll(blobDir, 0o700); err != nil {
		t.Fatal(err)
	}
	disc := startGraceful(t, discoveryBin, "--blob-dir", blobDir)
	var execs []*servertest.Process
	var addrs []string
	for i, host := range engines {
		args := append([]string{"--blob-dir", blobDir, "--cache-dir", t.TempDir(),
			"--egress-instance", fmt.Sprintf("fl%d%s", i, randomSuffix())}, execArgs...)
		if host != "" {
			args = append(args, "--docker-host", host)
		}
		p := servertest.Start(t, executorBin, args...)
		t.Cleanup(func() { _ = p.Signal(syscall.SIGTERM); _, _ = p.Wait(30 * time.Second) })
		execs, addrs = append(execs, p), append(addrs, p.Addr)
	}
	cfg := loopsvc.DefaultConfig()
	cfg.DataDir, cfg.DiscoveryAddr, cfg.ExecutorAddr = dataDir, disc.Addr, strings.Join(addrs, ",")
	return &fleetStack{stack: serveLoop(t, cfg), execs: execs}
}

// randomSuffix keeps egress instance names of concurrent stacks apart.
func randomSuffix() string { return fmt.Sprintf("%04d", rand.IntN(10000)) }

// The fleet test: two Docker engines on one machine, an executor
// on each, one loop over both. Twelve verifications use both engines;
// an executor killed mid-run does not change any verdict: its run goes
// again, from the same snapshot, on the other executor.
func TestFleetTwoEnginesOneLoop(t *testing.T) {
	integration(t)
	second := extraEngine(t, "fleet2")
	fs := newFleetStack(t, []string{"", second}, "--pool-size", "0", "--max-sandboxes", "3")
	a, b, s := fs.execs[0], fs.execs[1], fs.stack

	// Twelve at once: six executors' worth of sandboxes, so some queue.
	passing, failing := s.snapshot(sleepyCalc("2")), s.snapshot(enginetest.CalcFiles)
	var wg sync.WaitGroup
	var mu sync.Mutex
	used := map[string]int{}
	queued := 0
	for i := 0; i < 12; i++ {
		snap, want := passing, glv1.RunStatus_RUN_STATUS_PASSED
		if i%4 == 3 {
			snap, want = failing, glv1.RunStatus_RUN_STATUS_FAILED
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			evs := s.verify(&glv1.VerifyRequest{Snapshot: snap})
			fin := finished(evs)
			mu.Lock()
			defer mu.Unlock()
			if fin.GetStatus() != want {
				t.Errorf("verification finished %s, want %s: %s", fin.GetStatus(), want, fin.GetResult().GetSummary())
			}
			used[fin.GetResult().GetManifest().GetPlatform().GetExecutor()]++
			for _, ev := range evs {
				if ev.GetQueued() != nil {
					queued++
					break
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("executors used: %v; %d verification(s) queued", used, queued)
	if used[a.Addr] == 0 || used[b.Addr] == 0 || used[a.Addr]+used[b.Addr] != 12 {
		t.Fatalf("both engines must be used: %v (a=%s b=%s)", used, a.Addr, b.Addr)
	}

	// Kill the executor a long verification runs on, mid-run.
	stream, err := s.runs.Verify(s.ctx(), &glv1.VerifyRequest{Snapshot: s.snapshot(sleepyCalc("20"))})
	if err != nil {
		t.Fatal(err)
	}
	var evs []*glv1.RunEvent
	var victim *servertest.Process
	for victim == nil {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatalf("verify stream: %v", err)
		}
		evs = append(evs, resp.GetEvent())
		if resp.GetEvent().GetStepStarted() != nil {
			victim = runningOn(t, a, b)
		}
	}
	time.Sleep(time.Second) // the step is running
	if err := victim.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for {
		resp, err := stream.Recv()
		if err != nil {
			break
		}
		evs = append(evs, resp.GetEvent())
	}
	fin := finished(evs)
	res := fin.GetResult()
	var retry *glv1.ExecutorRetry
	for _, ev := range evs {
		if r := ev.GetExecutorRetry(); r != nil {
			retry = r
		}
	}
	if fin.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED || retry == nil || retry.GetFailedExecutor() != victim.Addr ||
		len(res.GetInfraRetries()) != 1 || res.GetManifest().GetPlatform().GetExecutor() == victim.Addr {
		t.Fatalf("after killing %s: %s (%s), retry %v, infra_retries %v, ran on %s", victim.Addr, fin.GetStatus(), res.GetSummary(),
			retry, res.GetInfraRetries(), res.GetManifest().GetPlatform().GetExecutor())
	}
	t.Logf("killed %s mid-run; retried on %s: %s", victim.Addr, res.GetManifest().GetPlatform().GetExecutor(), res.GetInfraRetries()[0])
	// The killed executor's container outlives it: remove it.
	runID := evs[0].GetRunId()
	for _, host := range []string{"unix:///var/run/docker.sock", second} {
		_ = exec.Command("bash", "-c", "docker -H "+host+" ps -aq --filter label=greenlight.run="+runID+
			" | xargs -r docker -H "+host+" rm -f").Run()
	}
}

// runningOn returns the executor (a or b) that reports a running sandbox.
func runningOn(t *testing.T, a, b *servertest.Process) *servertest.Process {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		for _, p := range []*servertest.Process{a, b} {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			c, err := glv1.NewExecutorServiceClient(p.Conn(t)).Capacity(ctx, &glv1.CapacityRequest{})
			cancel()
			if err == nil && c.GetRunning() > 0 {
				return p
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("no executor reports the running verification")
	return nil
}
