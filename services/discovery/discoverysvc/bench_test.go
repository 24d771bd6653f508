package discoverysvc

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
)

// memSnapshots serves one tar from memory (seekable, like a store file).
type memSnapshots struct{ data []byte }

func (m memSnapshots) Open(context.Context, blob.Digest) (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(m.data)), nil
}

// bigTree builds a tar of n files shaped like a real monorepo: a Go module
// with many packages and tests, a web/ Node package with its node_modules
// left in (the worst case: thousands of package.json files discovery must
// skip), a Python service with tests, Makefiles and configs.
func bigTree(tb testing.TB, n int) []byte {
	tb.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	add := func(name, body string) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			tb.Fatal(err)
		}
		if _, err := io.WriteString(tw, body); err != nil {
			tb.Fatal(err)
		}
	}
	src := "package p\n\n// F does nothing much.\nfunc F(a, b int) int {\n\treturn a + b\n}\n" + string(bytes.Repeat([]byte("// filler\n"), 40))
	add("go.mod", "module example.com/big\n\ngo 1.22\n\nrequire example.com/dep v1.2.3\n")
	add("go.sum", "example.com/dep v1.2.3 h1:abc\n")
	add("Makefile", "test:\n\tgo test ./...\nlint:\n\tgo vet ./...\n")
	add("web/package.json", `{"scripts": {"build": "tsc", "test": "jest", "lint": "eslint ."}, "devDependencies": {"jest": "29", "typescript": "5"}}`)
	add("web/package-lock.json", "{}")
	add("web/tsconfig.json", "{}")
	add("svc/pyproject.toml", "[project]\nname = \"svc\"\ndependencies = [\"requests\"]\n[tool.pytest.ini_options]\n[tool.ruff]\n")
	count := 7
	for i := 0; count < n; i++ {
		switch i % 10 {
		case 0, 1, 2, 3, 4:
			add(fmt.Sprintf("internal/pkg%04d/file%d.go", i/10, i%10), src)
		case 5:
			add(fmt.Sprintf("internal/pkg%04d/file_test.go", i/10), src)
		case 6:
			add(fmt.Sprintf("web/src/comp%04d.ts", i/10), "export const x = 1;\n")
		case 7:
			add(fmt.Sprintf("web/node_modules/dep%04d/package.json", i/10), `{"name": "dep", "scripts": {"test": "x"}}`)
		case 8:
			add(fmt.Sprintf("svc/svc/mod%04d.py", i/10), "def f():\n    return 1\n")
		case 9:
			add(fmt.Sprintf("svc/tests/test_mod%04d.py", i/10), "def test_f():\n    assert True\n")
		}
		count++
	}
	if err := tw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// scanOnly is the baseline: read every tar header and skip the content,
// the least any indexer must do.
func scanOnly(data []byte) (int, error) {
	tr := tar.NewReader(bytes.NewReader(data))
	n := 0
	for {
		_, err := tr.Next()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
	}
}

func planOnce(tb testing.TB, svc *Service, req *glv1.PlanRequest) *glv1.PlanResponse {
	resp, err := svc.Plan(context.Background(), req)
	if err != nil {
		tb.Fatal(err)
	}
	return resp
}

// heapDuring returns the bytes allocated while fn runs with the collector
// off: an upper bound of the peak heap fn needs.
func heapDuring(fn func()) uint64 {
	runtime.GC()
	old := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(old)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.HeapAlloc - before.HeapAlloc
}

// BenchmarkPlan20kFiles measures a whole Plan (index the tar, detect,
// extract, plan) on a 20,000-file snapshot, with the index cache off.
// Metrics: files/s, MB/s of tar, peak-heap-MB (upper bound, collector off
// during one run), and x-scan: time relative to a bare archive/tar header
// scan of the same bytes measured in the same run.
func BenchmarkPlan20kFiles(b *testing.B) {
	const files = 20_000
	data := bigTree(b, files)
	svc := New(memSnapshots{data: data}, nil, Options{CacheEntries: -1})
	req := &glv1.PlanRequest{Snapshot: blob.DigestOf(data).Proto(), ChangedFiles: []string{"web/package.json"}}
	resp := planOnce(b, svc, req)
	if len(resp.GetPipeline().GetSteps()) == 0 {
		b.Fatal("empty pipeline")
	}
	peak := heapDuring(func() { planOnce(b, svc, req) })
	scanStart := time.Now()
	const scans = 5
	for range scans {
		if n, err := scanOnly(data); err != nil || n != files {
			b.Fatalf("scan: %d files, %v", n, err)
		}
	}
	scan := time.Since(scanStart) / scans
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		planOnce(b, svc, req)
	}
	per := time.Since(start) / time.Duration(b.N)
	b.ReportMetric(float64(files)/per.Seconds(), "files/s")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(per)/float64(scan), "x-scan")
}

// TestPlan20kFilesBudget keeps the benchmark's targets from regressing
// silently: under 100 MB of heap and (generously, for slow CI) 5 s.
func TestPlan20kFilesBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	data := bigTree(t, 20_000)
	svc := New(memSnapshots{data: data}, nil, Options{CacheEntries: -1})
	req := &glv1.PlanRequest{Snapshot: blob.DigestOf(data).Proto()}
	start := time.Now()
	var resp *glv1.PlanResponse
	peak := heapDuring(func() { resp = planOnce(t, svc, req) })
	took := time.Since(start)
	t.Logf("20,000 files (%.1f MB tar): %v, heap upper bound %.1f MB", float64(len(data))/(1<<20), took, float64(peak)/(1<<20))
	if peak > 100<<20 {
		t.Errorf("heap upper bound %d bytes, want under 100 MB", peak)
	}
	if took > 5*time.Second {
		t.Errorf("took %v, want well under 1 s (5 s allowed for slow machines)", took)
	}
	var roots []string
	for _, sp := range resp.GetCapabilities().GetSubprojects() {
		roots = append(roots, sp.GetRoot())
	}
	if fmt.Sprint(roots) != "[. svc web]" {
		t.Fatalf("subprojects = %v (node_modules must not add any)", roots)
	}
}
