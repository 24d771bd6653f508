package parse

import (
	"bytes"
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
	for i, f := range ps.all {
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
	for _, mode := range []string{"lines", "keep", "keep+gojson", "all"} {
		b.Run(mode, func(b *testing.B) {
			b.SetBytes(50 << 20)
			for i := 0; i < b.N; i++ {
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
					for _, f := range ps.all {
						f.feed(ln)
					}
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
	names := []string{"gotext", "pytest", "jstext", "jsline", "mocha", "node", "cargo", "maven", "generic", "diag", "crash", "keep", "gojson"}
	for k, name := range names {
		b.Run(name, func(b *testing.B) {
			ps := newLogParsers(&lim, NewPaths("", "svc", nil), glv1.Phase_PHASE_TEST)
			var f func(line)
			switch name {
			case "keep":
				f = ps.keep
			case "gojson":
				f = func(l line) { ps.gojson.consume(l) }
			default:
				f = ps.all[k].feed
			}
			b.ResetTimer()
			n := 0
			for i := 0; i < b.N; i++ {
				f(lines[n])
				if n++; n == len(lines) {
					n = 0
				}
			}
		})
	}
}
