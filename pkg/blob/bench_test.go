package blob

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Run with: go test -run '^$' -bench . -benchtime 5x ./blob/
//
// Each benchmark times greenlight's path (ns/op, MB/s) and, in the same run
// and on the same disk, the plain-file baseline for the same bytes; it
// reports baseline-MB/s and x-baseline (ours divided by the baseline: 1.0
// means as fast as plain files).

const benchSize = 64 << 20

// consumeBufSize is what a streaming reader of a blob would use.
const consumeBufSize = 1 << 20

// baseline times plain-file operations on the same bytes.
type baseline struct {
	dir     string
	data    []byte
	elapsed time.Duration
	n       int
}

func newBaseline(b *testing.B, data []byte) *baseline {
	return &baseline{dir: b.TempDir(), data: data}
}

// write is os.WriteFile plus the fsync a durable store needs.
func (bl *baseline) write(b *testing.B) {
	path := filepath.Join(bl.dir, "plain")
	start := time.Now()
	f, err := os.Create(path)
	if err == nil {
		_, err = f.Write(bl.data)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	bl.add(time.Since(start))
	if err != nil {
		b.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		b.Fatal(err)
	}
}

// read is os.ReadFile of a file holding the same bytes.
func (bl *baseline) read(b *testing.B) {
	path := filepath.Join(bl.dir, "plain-read")
	if bl.n == 0 {
		if err := os.WriteFile(path, bl.data, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	start := time.Now()
	got, err := os.ReadFile(path)
	bl.add(time.Since(start))
	if err != nil || len(got) != len(bl.data) {
		b.Fatalf("baseline read: %d bytes, %v", len(got), err)
	}
}

func (bl *baseline) add(d time.Duration) {
	bl.elapsed += d
	bl.n++
}

// report adds the baseline and the ratio to the benchmark's own figures.
func (bl *baseline) report(b *testing.B) {
	if bl.n == 0 || b.Elapsed() == 0 {
		return
	}
	mb := float64(len(bl.data)) / 1e6
	ours := mb * float64(b.N) / b.Elapsed().Seconds()
	base := mb * float64(bl.n) / bl.elapsed.Seconds()
	b.ReportMetric(base, "baseline-MB/s")
	b.ReportMetric(ours/base, "x-baseline")
}

// consume reads r to the end the way a streaming consumer would.
func consume(b *testing.B, r io.Reader, want int64) {
	buf := make([]byte, consumeBufSize)
	var n int64
	for {
		m, err := r.Read(buf)
		n += int64(m)
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	if n != want {
		b.Fatalf("read %d bytes, want %d", n, want)
	}
}

// benchPut times b.N uploads of a 64 MiB blob through put, deleting it in
// between (untimed) so that every upload really writes.
func benchPut(b *testing.B, store *Store, put func(context.Context, io.Reader) (Digest, error)) {
	ctx := context.Background()
	data := randomBytes(benchSize, 1)
	bl := newBaseline(b, data)
	b.SetBytes(benchSize)
	b.ResetTimer()
	for range b.N {
		d, err := put(ctx, bytes.NewReader(data))
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if err := store.Delete(ctx, d); err != nil {
			b.Fatal(err)
		}
		bl.write(b)
		b.StartTimer()
	}
	b.StopTimer()
	bl.report(b)
}

// benchOpen times b.N full reads of a 64 MiB blob through open.
func benchOpen(b *testing.B, store *Store, open func(context.Context, Digest) (io.ReadCloser, error)) {
	ctx := context.Background()
	data := randomBytes(benchSize, 2)
	d, err := store.Put(ctx, bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	bl := newBaseline(b, data)
	b.SetBytes(benchSize)
	b.ResetTimer()
	for range b.N {
		rc, err := open(ctx, d)
		if err != nil {
			b.Fatal(err)
		}
		consume(b, rc, benchSize)
		_ = rc.Close()
		b.StopTimer()
		bl.read(b)
		b.StartTimer()
	}
	b.StopTimer()
	bl.report(b)
}

func BenchmarkStorePut(b *testing.B) {
	s := newTestStore(b)
	benchPut(b, s, s.Put)
}

func BenchmarkStoreOpen(b *testing.B) {
	s := newTestStore(b)
	benchOpen(b, s, s.Open)
}

func BenchmarkGRPCPut(b *testing.B) {
	r := serveBufconn(b, newTestStore(b))
	benchPut(b, r.store, r.client.Put)
}

func BenchmarkGRPCOpen(b *testing.B) {
	r := serveBufconn(b, newTestStore(b))
	benchOpen(b, r.store, r.client.Open)
}
