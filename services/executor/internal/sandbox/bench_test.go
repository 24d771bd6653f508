package sandbox_test

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
	"github.com/greenlight-dev/greenlight/services/executor/internal/testenv"
)

// BenchmarkExecutor compares the executor with bare `docker run`, measured
// in the same run (make bench-executor), in both step runner modes: "exec"
// (one `docker exec` per step) and "agent" (greenlight-runner, one exec per
// sandbox; skipped when the image has no runner):
//
//   - cold/MODE: a 5-step trivial pipeline (create, start, copy-in, 5
//     steps) against the same 5 commands in one `docker run --rm IMAGE sh
//     -c` and against `docker run --rm IMAGE true`; per-step time (median);
//   - warm-pool/MODE: the same pipeline with a warm pool (create and start,
//     and in agent mode the runner's exec, are off the run's path) against
//     `docker run --rm IMAGE true`;
//   - dep-cache: a re-run whose install step is restored from the dependency
//     cache against the cold run that installed (default mode).
//
// Targets: step-ms < 60, cold run < 1.5x bare `true`, warm pool < 0.5x.
func BenchmarkExecutor(b *testing.B) {
	commands := []string{"echo one", "echo two", "echo three", "echo four", "echo five"}
	pipeline := func() []sandbox.Step {
		steps := make([]sandbox.Step, len(commands))
		for i, c := range commands {
			steps[i] = sandbox.Step{Name: fmt.Sprintf("s%d", i+1), Command: c}
		}
		return steps
	}
	script := ""
	for _, c := range commands {
		script += c + "; "
	}

	for _, mode := range []string{sandbox.StepRunnerExec, sandbox.StepRunnerAgent} {
		setMode := func(c *sandbox.Config) { c.StepRunner = mode }
		b.Run("cold/"+mode, func(b *testing.B) {
			h := newHarness(b, setMode)
			skipWithoutRunner(b, h, mode)
			var runs, bareTrue, bareFive, steps []float64
			for i := 0; i < b.N; i++ {
				req := h.request(nil, pipeline()...)
				req.RunID = fmt.Sprintf("bench-cold-%s-%d", mode, i)
				runs = append(runs, ms(h.timeRun(req)))
				steps = append(steps, h.lastStepMs...)
				bareTrue = append(bareTrue, ms(bareDocker(b, "true")))
				bareFive = append(bareFive, ms(bareDocker(b, "sh", "-c", script)))
			}
			report(b, map[string]float64{
				"run-ms": median(runs), "step-ms": median(steps), "bare-true-ms": median(bareTrue),
				"bare-5cmd-ms": median(bareFive), "x-bare-true": median(runs) / median(bareTrue),
				"x-bare-5cmd": median(runs) / median(bareFive),
			})
		})

		b.Run("warm-pool/"+mode, func(b *testing.B) {
			h := newHarness(b, setMode)
			skipWithoutRunner(b, h, mode)
			cfg := h.runner.Config()
			pool := sandbox.NewPool(h.rt, cfg, sandbox.SelfIdentity(), 1, testenv.Logger(b))
			b.Cleanup(pool.Close)
			r, err := sandbox.NewRunner(cfg, h.rt, h.blobs, sandbox.WithPool(pool))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(r.Wait)
			h.runner = r
			img, err := h.rt.Image(context.Background(), testenv.PythonImage)
			if err != nil {
				b.Fatal(err)
			}
			pool.Warm(img)
			var runs, bareTrue, steps []float64
			for i := 0; i < b.N; i++ {
				waitPool(b, pool, 1)
				req := h.request(nil, pipeline()...)
				req.RunID = fmt.Sprintf("bench-warm-%s-%d", mode, i)
				runs = append(runs, ms(h.timeRun(req)))
				steps = append(steps, h.lastStepMs...)
				bareTrue = append(bareTrue, ms(bareDocker(b, "true")))
			}
			report(b, map[string]float64{
				"run-ms": median(runs), "step-ms": median(steps), "bare-true-ms": median(bareTrue),
				"x-bare-true": median(runs) / median(bareTrue),
			})
		})
	}

	b.Run("dep-cache", func(b *testing.B) {
		cache := newMemCache()
		h := newHarness(b)
		r, err := sandbox.NewRunner(h.runner.Config(), h.rt, h.blobs, sandbox.WithDepCache(cache))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(r.Wait)
		h.runner = r
		install := sandbox.Step{Name: "install", Install: true, CacheKeyFiles: []string{"requirements.txt"},
			CachePaths: []string{"deps"}, Command: "sleep 1; mkdir -p deps && head -c 1000000 /dev/urandom > deps/lib.bin"}
		var cold, warm []float64
		for i := 0; i < b.N; i++ {
			files := map[string]testenv.File{"requirements.txt": {Body: fmt.Sprintf("lib==%d\n", i)}}
			req := h.request(files, install, sandbox.Step{Name: "test", Command: "test -s deps/lib.bin"})
			req.RunID = fmt.Sprintf("bench-dep-cold-%d", i)
			cold = append(cold, ms(h.timeRun(req)))
			req.RunID = fmt.Sprintf("bench-dep-warm-%d", i)
			warm = append(warm, ms(h.timeRun(req)))
			if !h.lastResult.Steps[0].CacheHit {
				b.Fatalf("the re-run missed the dependency cache")
			}
		}
		report(b, map[string]float64{"cold-ms": median(cold), "warm-ms": median(warm), "x-cold": median(warm) / median(cold)})
	})
}

// timeRun runs req, checks that every step passed, and returns its wall time.
func (h *harness) timeRun(req sandbox.Request) time.Duration {
	start := time.Now()
	res, _ := h.run(context.Background(), req)
	d := time.Since(start)
	h.lastResult, h.lastStepMs = res, nil
	for _, s := range res.Steps {
		if s.Status != sandbox.StatusOK {
			h.t.Fatalf("step %s: %v %q %q", s.Name, s.Status, s.Reason, s.Tail)
		}
		h.lastStepMs = append(h.lastStepMs, ms(s.Duration))
	}
	return d
}

// bareDocker times `docker run --rm IMAGE args...`, the baseline as a
// person would type it (default network).
func bareDocker(b *testing.B, args ...string) time.Duration {
	start := time.Now()
	out, err := exec.Command("docker", append([]string{"run", "--rm", testenv.PythonImage}, args...)...).CombinedOutput()
	if err != nil {
		b.Fatalf("docker run: %v\n%s", err, out)
	}
	return time.Since(start)
}

// skipWithoutRunner skips agent-mode benchmarks on images without
// greenlight-runner (upstream images, or images built before it).
func skipWithoutRunner(b *testing.B, h *harness, mode string) {
	if mode != sandbox.StepRunnerAgent {
		return
	}
	img, err := h.rt.Image(context.Background(), testenv.PythonImage)
	if err != nil {
		b.Fatal(err)
	}
	if img.Labels[runnerproto.LabelRunner] == "" {
		b.Skipf("%s has no greenlight-runner (run make images)", testenv.PythonImage)
	}
}

func waitPool(b *testing.B, p *sandbox.Pool, n int) {
	deadline := time.Now().Add(30 * time.Second)
	for p.Idle(testenv.PythonImage) < n {
		if time.Now().After(deadline) {
			b.Fatal("the pool did not refill")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func report(b *testing.B, m map[string]float64) {
	for k, v := range m {
		b.ReportMetric(v, k)
	}
	b.ReportMetric(0, "ns/op") // wall time per op is meaningless here: see run-ms
}
