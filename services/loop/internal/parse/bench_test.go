package parse

import (
	"context"
	"errors"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// repeatReader yields content over and over until size bytes were read, so
// a 50 MB log costs no memory in the benchmark itself.
type repeatReader struct {
	content []byte
	size    int64
	off     int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.off >= r.size {
		return 0, io.EOF
	}
	i := int(r.off % int64(len(r.content)))
	n := copy(p, r.content[i:])
	if rem := r.size - r.off; int64(n) > rem {
		n = int(rem)
	}
	r.off += int64(n)
	return n, nil
}

// peakHeap samples the live heap while fn runs and returns the maximum.
func peakHeap(fn func()) uint64 {
	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	fn()
	close(stop)
	wg.Wait()
	return peak.Load()
}

// BenchmarkParse parses 5 MB and 50 MB logs made by repeating real captured
// output; MB/s comes from SetBytes, peak-heap-MB from runtime.MemStats. The
// baseline only splits the same bytes into lines. On a shared machine wall
// time is noisy, so each size also reports CPU-time throughput and
// x-lines-cpu: parse CPU time over the CPU time of splitting the same bytes
// into lines, measured in the same sub-benchmark.
func BenchmarkParse(b *testing.B) {
	for _, src := range []struct{ name, file string }{
		{"go-json", "testdata/golden/go-json/fail.log"},
		{"pytest", "testdata/golden/pytest/fail-plain.log"},
		// -rA output: PASSED lines and a PASSES section, no failures.
		{"pytest-pass", "testdata/golden/pytest/pass.log"},
	} {
		content, err := os.ReadFile(src.file)
		if err != nil {
			b.Fatal(err)
		}
		for _, mb := range []int64{5, 50} {
			size := mb << 20
			b.Run(src.name+"/"+itoaMB(mb), func(b *testing.B) {
				b.SetBytes(size)
				var peak uint64
				cpu0 := cpuTime()
				for i := 0; i < b.N; i++ {
					p := peakHeap(func() {
						rep, err := Step(context.Background(), Input{
							Step:   &glv1.Step{Name: "t", Phase: glv1.Phase_PHASE_TEST, Workdir: "svc"},
							Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1},
							Log:    &repeatReader{content: content, size: size},
						})
						if err != nil || !rep.HasTests {
							b.Fatalf("parse: %v", err)
						}
					})
					peak = max(peak, p)
				}
				cpu := (cpuTime() - cpu0).Seconds()
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
				// CPU-time throughput does not depend on other load on the machine.
				if cpu > 0 {
					b.ReportMetric(float64(size*int64(b.N))/(1<<20)/cpu, "cpu-MB/s")
				}
				b.StopTimer()
				if lines := splitCPU(b, content, size, b.N); cpu > 0 && lines > 0 {
					b.ReportMetric(cpu/lines, "x-lines-cpu")
				}
			})
		}
		b.Run(src.name+"/baseline-lines-50MB", func(b *testing.B) {
			b.SetBytes(50 << 20)
			cpu := splitCPU(b, content, 50<<20, b.N)
			if cpu > 0 {
				b.ReportMetric(float64(50*b.N)/cpu, "cpu-MB/s")
			}
		})
	}
}

// splitCPU splits n logs of size bytes into lines, as the parser's reader
// does, and returns the CPU seconds it took.
func splitCPU(b *testing.B, content []byte, size int64, n int) float64 {
	cpu0 := cpuTime()
	lines := 0
	for i := 0; i < n; i++ {
		lr := newLineReader(&repeatReader{content: content, size: size}, 1<<20)
		for {
			if _, err := lr.next(); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				b.Fatal(err)
			}
			lines++
		}
	}
	if lines == 0 {
		b.Fatal("no lines split")
	}
	return (cpuTime() - cpu0).Seconds()
}

// cpuTime is the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func itoaMB(mb int64) string {
	if mb == 5 {
		return "5MB"
	}
	return "50MB"
}
