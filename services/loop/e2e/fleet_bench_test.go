package e2e_test

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// oneStep is a project whose pipeline is one step (greenlight.yaml).
func oneStep() map[string]string {
	return map[string]string{
		"greenlight.yaml": "version: 1\n# One step, as issue 25 measures it: no default secret scan.\nsecurity: off\nsteps:\n  - name: check\n    command: \"true\"\n    phase: test\n",
		"README.md":       "one step\n",
	}
}

// parallelVerifies runs n verifications of snap at once and returns how
// long they took together.
func parallelVerifies(b *testing.B, s *stack, snap *glv1.Digest, n int) time.Duration {
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			evs := s.verify(&glv1.VerifyRequest{Snapshot: snap})
			if st := finished(evs).GetStatus(); st != glv1.RunStatus_RUN_STATUS_PASSED {
				b.Errorf("verify: %s: %s", st, finished(evs).GetResult().GetSummary())
			}
		}()
	}
	wg.Wait()
	return time.Since(start)
}

// BenchmarkFleetThroughput: GREENLIGHT_BENCH_PARALLEL (default 50)
// verifications of the calc project at once through a loop with one
// executor, then through a loop with two executors on two Docker engines
// of this machine, alternating in the same run. Reports verifications per
// minute for each and their ratio (on one machine both engines share its
// CPUs: the ratio shows what placement and the second engine's parallel
// container starts buy, not a second machine's).
func BenchmarkFleetThroughput(b *testing.B) {
	integration(b)
	n := 50
	if v, err := strconv.Atoi(os.Getenv("GREENLIGHT_BENCH_PARALLEL")); err == nil && v > 0 {
		n = v
	}
	second := extraEngine(b, "fleet2")
	one := newFleetStack(b, []string{""}, "--pool-size", "2")
	two := newFleetStack(b, []string{"", second}, "--pool-size", "2")
	snapOne, snapTwo := one.snapshot(fixedCalc()), two.snapshot(fixedCalc())
	var d1, d2 time.Duration
	rounds := 0
	for b.Loop() {
		d1 += parallelVerifies(b, one.stack, snapOne, n)
		d2 += parallelVerifies(b, two.stack, snapTwo, n)
		rounds++
	}
	perMin := func(d time.Duration) float64 { return float64(n*rounds) / d.Minutes() }
	b.ReportMetric(perMin(d1), "verifies/min-1-executor")
	b.ReportMetric(perMin(d2), "verifies/min-2-executors")
	b.ReportMetric(perMin(d2)/perMin(d1), "x-2-vs-1")
}

// BenchmarkWarmVerifyVsDockerRun: a one-step project verified through the
// loop and an executor with a warm pool (as greenlight serve runs), against
// a bare `docker run --rm IMAGE true`, alternating in the same run.
// Target (issue 15): at most 0.5x.
func BenchmarkWarmVerifyVsDockerRun(b *testing.B) {
	integration(b)
	fs := newFleetStack(b, []string{""}, "--pool-size", "2")
	snap := fs.snapshot(oneStep())
	// A first verification warms discovery, the pool and the caches.
	parallelVerifies(b, fs.stack, snap, 1)
	var verify, bare time.Duration
	n := 0
	for b.Loop() {
		verify += parallelVerifies(b, fs.stack, snap, 1)
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		out, err := exec.CommandContext(ctx, "docker", "run", "--rm", "--network", "none", pythonImage, "true").CombinedOutput()
		cancel()
		if err != nil {
			b.Fatalf("docker run: %v\n%s", err, out)
		}
		bare += time.Since(start)
		n++
		time.Sleep(200 * time.Millisecond) // let the pool refill, as between real requests
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
	b.ReportMetric(ms(verify), "warm-verify-ms/op")
	b.ReportMetric(ms(bare), "docker-run-true-ms/op")
	b.ReportMetric(float64(verify)/float64(bare), "x-docker-run")
}
