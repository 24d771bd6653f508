package parse

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func TestZZPerParser(t *testing.T) {
	content, _ := os.ReadFile("testdata/golden/pytest/fail-plain.log")
	big := bytes.Repeat(content, 3000)
	var lines []line
	for len(big) > 0 {
		i := bytes.IndexByte(big, '\n')
		lines = append(lines, line{text: big[:i]})
		big = big[i+1:]
	}
	lim := DefaultLimits()
	paths := NewPaths("", "svc", nil)
	ps := newLogParsers(&lim, paths, glv1.Phase_PHASE_TEST)
	names := []string{"gotext", "pytest", "jstext", "jsline", "mocha", "node", "cargo", "maven", "generic", "diag", "crash"}
	total := time.Duration(0)
	st := time.Now()
	for _, ln := range lines {
		ps.keep(ln)
	}
	fmt.Println("keep", time.Since(st)/time.Duration(len(lines)))
	st = time.Now()
	for _, ln := range lines {
		ps.gojson.consume(ln)
	}
	fmt.Println("gojson", time.Since(st)/time.Duration(len(lines)))
	for i, f := range []interface{ feed(line) }{ps.gotext, ps.pytest, ps.jstext, ps.jsline, ps.mocha, ps.node, ps.cargo, ps.maven, ps.generic, ps.diag, ps.crash} {
		st := time.Now()
		for _, ln := range lines {
			f.feed(ln)
		}
		d := time.Since(st)
		total += d
		fmt.Println(names[i], d/time.Duration(len(lines)), "ns/line")
	}
	fmt.Println("total", total/time.Duration(len(lines)), "lines", len(lines))
}

func BenchmarkZZPytest(b *testing.B) {
	content, _ := os.ReadFile("testdata/golden/pytest/fail-plain.log")
	big := bytes.Repeat(content, 3000)
	var lines []line
	for len(big) > 0 {
		i := bytes.IndexByte(big, '\n')
		lines = append(lines, line{text: big[:i]})
		big = big[i+1:]
	}
	lim := DefaultLimits()
	paths := NewPaths("", "svc", nil)
	for i := 0; i < b.N; i++ {
		ps := newLogParsers(&lim, paths, glv1.Phase_PHASE_TEST)
		for _, ln := range lines {
			ps.pytest.feed(ln)
		}
	}
}

func BenchmarkZZScan(b *testing.B) {
	content, _ := os.ReadFile("testdata/golden/pytest/fail-plain.log")
	lim := DefaultLimits()
	for _, mode := range []string{"lines", "keep", "keep+gojson", "all", "step"} {
		b.Run(mode, func(b *testing.B) {
			b.SetBytes(50 << 20)
			c0 := cpuTime()
			defer func() { b.ReportMetric(float64(50*b.N)/(cpuTime()-c0).Seconds(), "cpu-MB/s") }()
			for i := 0; i < b.N; i++ {
				if mode == "step" {
					Step(context.Background(), Input{
						Step:   &glv1.Step{Name: "t", Phase: glv1.Phase_PHASE_TEST, Workdir: "svc"},
						Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1},
						Log:    &repeatReader{content: content, size: 50 << 20},
					})
					continue
				}
				ps := newLogParsers(&lim, NewPaths("", "svc", nil), glv1.Phase_PHASE_TEST)
				lr := newLineReader(&repeatReader{content: content, size: 50 << 20}, 1<<20)
				for {
					ln, err := lr.next()
					if err != nil {
						break
					}
					if mode == "lines" {
						continue
					}
					ps.keep(ln)
					if mode == "keep" {
						continue
					}
					if ps.gojson.consume(ln) {
						continue
					}
					if mode == "keep+gojson" {
						continue
					}
					ps.feed(ln)
				}
			}
		})
	}
}

func BenchmarkZZEach(b *testing.B) {
	content, _ := os.ReadFile("testdata/golden/pytest/fail-plain.log")
	big := bytes.Repeat(content, 300)
	var lines []line
	for len(big) > 0 {
		i := bytes.IndexByte(big, '\n')
		lines = append(lines, line{text: big[:i]})
		big = big[i+1:]
	}
	lim := DefaultLimits()
	names := []string{"gotext", "pytest", "jstext", "jsline", "mocha", "node", "cargo", "maven", "generic", "diag", "crash", "keep", "gojson", "pytest-nocap"}
	for k, name := range names {
		b.Run(name, func(b *testing.B) {
			ps := newLogParsers(&lim, NewPaths("", "svc", nil), glv1.Phase_PHASE_TEST)
			var f func(line)
			switch name {
			case "keep":
				f = ps.keep
			case "gojson":
				f = func(l line) { ps.gojson.consume(l) }
			case "pytest-nocap":
				lim2 := lim
				lim2.MaxFailures = 1 << 30
				pp := newPytestParser(&lim2, NewPaths("", "svc", nil))
				f = func(l line) {
					pp.feed(l)
					if len(pp.blocks) > 1000 {
						pp.blocks = pp.blocks[:0]
					}
				}
			default:
				f = []interface{ feed(line) }{ps.gotext, ps.pytest, ps.jstext, ps.jsline, ps.mocha, ps.node, ps.cargo, ps.maven, ps.generic, ps.diag, ps.crash}[k].feed
			}
			b.ResetTimer()
			n := 0
			c0 := cpuTime()
			for i := 0; i < b.N; i++ {
				f(lines[n])
				if n++; n == len(lines) {
					n = 0
				}
			}
			b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/line")
		})
	}
}
