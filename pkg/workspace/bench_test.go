package workspace

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// benchTree is a generated workspace shared by the benchmarks: 5,000 files
// in 100 directories, mostly small sources plus some larger assets, about
// 50 MB, filled with seeded random bytes so every run packs the same tree.
var benchTree struct {
	once  sync.Once
	dir   string
	bytes int64
	err   error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchTree.dir != "" {
		os.RemoveAll(benchTree.dir)
	}
	os.Exit(code)
}

func benchDir(b *testing.B) (string, int64) {
	benchTree.once.Do(func() {
		benchTree.dir, benchTree.bytes, benchTree.err = generateTree()
	})
	if benchTree.err != nil {
		b.Fatal(benchTree.err)
	}
	return benchTree.dir, benchTree.bytes
}

func generateTree() (string, int64, error) {
	dir, err := os.MkdirTemp("", "greenlight-bench-*")
	if err != nil {
		return "", 0, err
	}
	rng := rand.New(rand.NewChaCha8([32]byte{1}))
	buf := make([]byte, 128<<10)
	var total int64
	for i := range 5000 {
		size := 512 + rng.IntN(8<<10) // 90%: 0.5–8.5 KiB sources
		if i%10 == 0 {
			size = 16<<10 + rng.IntN(112<<10) // 10%: 16–128 KiB assets
		}
		p := filepath.Join(dir, fmt.Sprintf("pkg%02d/sub%d/file%04d.txt", i%100/10, i%10, i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return dir, 0, err
		}
		for j := range buf[:size] {
			buf[j] = byte(rng.Uint32())
		}
		if err := os.WriteFile(p, buf[:size], 0o644); err != nil {
			return dir, 0, err
		}
		total += int64(size)
	}
	return dir, total, nil
}

// BenchmarkPack measures Pack and, in the same run on the same tree, GNU
// tar writing an archive to a pipe that is drained and discarded (not to
// /dev/null: GNU tar detects /dev/null and skips reading file contents).
// ns/op covers one Pack plus one tar; the metrics separate them.
func BenchmarkPack(b *testing.B) {
	dir, size := benchDir(b)
	if _, err := exec.LookPath("tar"); err != nil {
		b.Fatal("the tar baseline needs a tar binary: ", err)
	}
	ctx := context.Background()
	var packTime, tarTime time.Duration
	n := 0
	for b.Loop() {
		start := time.Now()
		if _, err := Pack(ctx, dir, io.Discard, PackOptions{}); err != nil {
			b.Fatal(err)
		}
		packTime += time.Since(start)

		start = time.Now()
		cmd := exec.Command("tar", "-c", "-f", "-", "-C", dir, ".")
		cmd.Stdout = io.Discard
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		tarTime += time.Since(start)
		n++
	}
	mb := float64(size) * float64(n) / 1e6
	b.ReportMetric(mb/packTime.Seconds(), "pack-MB/s")
	b.ReportMetric(mb/tarTime.Seconds(), "tar-MB/s")
	b.ReportMetric(tarTime.Seconds()/packTime.Seconds(), "pack/tar")
}

// BenchmarkValidate measures Validate on the packed benchmark tree held
// in memory.
func BenchmarkValidate(b *testing.B) {
	dir, _ := benchDir(b)
	var buf bytes.Buffer
	if _, err := Pack(context.Background(), dir, &buf, PackOptions{}); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		st, err := Validate(bytes.NewReader(data), Limits{})
		if err != nil || st.Files != 5000 {
			b.Fatalf("validate: %v (%d files)", err, st.Files)
		}
	}
}
