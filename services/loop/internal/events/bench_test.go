package events

import (
	"context"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
	bolt "go.etcd.io/bbolt"
	"google.golang.org/protobuf/proto"
)

// benchEvent is a typical log-chunk event: 200 bytes of output.
func benchEvent() *glv1.RunEvent {
	return &glv1.RunEvent{Kind: &glv1.RunEvent_LogChunk{LogChunk: &glv1.LogChunk{
		Step: "test", Stream: glv1.Stream_STREAM_STDOUT, Data: strings.Repeat("ok  \tpkg/x 0.01s\n", 12)[:200],
	}}}
}

// benchValueSize is the marshalled size of a stored benchEvent (with run id,
// seq and time), so the baseline writes values of the same size.
func benchValueSize() int {
	ev := benchEvent()
	ev.RunId, ev.Seq = "r_20261122T042000_abcdefgh", 1000
	ev.Time = nil
	return proto.Size(ev) + 12 // + a timestamp
}

// plainPutRate measures a plain bbolt loop that stores n same-size values,
// one transaction each: the floor any durable event log on bbolt pays. Each
// benchmark measures it right before its own run, because fsync latency on
// shared disks drifts by a factor of two within seconds.
func plainPutRate(b *testing.B, noSync bool, n int) float64 {
	db := openBolt(b, noSync)
	val := make([]byte, benchValueSize())
	start := time.Now()
	for i := range n {
		if err := db.Update(func(tx *bolt.Tx) error {
			return tx.Bucket([]byte("events")).Put(binary.BigEndian.AppendUint64(nil, uint64(i)), val)
		}); err != nil {
			b.Fatal(err)
		}
	}
	return float64(n) / time.Since(start).Seconds()
}

// baselineCount bounds the paired baseline's size.
func baselineCount(b *testing.B, noSync bool) int {
	if noSync {
		return min(b.N, 20000)
	}
	return min(b.N, 500)
}

// openBolt opens a raw bbolt file with one bucket.
func openBolt(b *testing.B, noSync bool) *bolt.DB {
	db, err := bolt.Open(filepath.Join(b.TempDir(), "plain.db"), 0o600, &bolt.Options{NoSync: noSync})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	if err := db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucket([]byte("events"))
		return err
	}); err != nil {
		b.Fatal(err)
	}
	return db
}

// report adds events/s and the ratio to the paired plain-put baseline.
func report(b *testing.B, events int, baseline float64) {
	rate := float64(events) / b.Elapsed().Seconds()
	b.ReportMetric(rate, "events/s")
	b.ReportMetric(baseline, "plain_put_events/s")
	b.ReportMetric(rate/baseline, "x_plain_put")
	b.ReportMetric(0, "ns/op")
}

// reportGroups adds how many appends shared a commit.
func reportGroups(b *testing.B, s *store.Store) {
	st := s.WriterStats()
	if st.Commits > 0 {
		b.ReportMetric(float64(st.Appends)/float64(st.Commits), "events/commit")
	}
}

// BenchmarkEventThroughput measures durable event appends, alone and with
// live delivery, against a plain bbolt Put loop measured in the same run.
func BenchmarkEventThroughput(b *testing.B) {
	for _, noSync := range []bool{false, true} {
		mode := "fsync"
		if noSync {
			mode = "nosync"
		}
		b.Run(mode+"/plain-put-baseline", func(b *testing.B) { benchPlainPut(b, noSync) })
		b.Run(mode+"/plain-batch-8-writers", func(b *testing.B) { benchPlainBatch(b, noSync, 8) })
		b.Run(mode+"/append", func(b *testing.B) { benchAppend(b, noSync, 0) })
		b.Run(mode+"/append+1-watcher", func(b *testing.B) { benchAppend(b, noSync, 1) })
		b.Run(mode+"/append+100-watchers", func(b *testing.B) { benchAppend(b, noSync, 100) })
		b.Run(mode+"/append-8-runs-concurrently", func(b *testing.B) { benchParallelAppend(b, noSync, 8) })
	}
}

// benchPlainPut is the baseline itself: one Put per transaction.
func benchPlainPut(b *testing.B, noSync bool) {
	baseline := plainPutRate(b, noSync, baselineCount(b, noSync))
	db := openBolt(b, noSync)
	val := make([]byte, benchValueSize())
	b.ResetTimer()
	for i := range b.N {
		if err := db.Update(func(tx *bolt.Tx) error {
			return tx.Bucket([]byte("events")).Put(binary.BigEndian.AppendUint64(nil, uint64(i)), val)
		}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	report(b, b.N, baseline)
}

// benchPlainBatch is bbolt's own DB.Batch with concurrent writers, for
// comparison with the store's group commit.
func benchPlainBatch(b *testing.B, noSync bool, writers int) {
	baseline := plainPutRate(b, noSync, baselineCount(b, noSync))
	db := openBolt(b, noSync)
	val := make([]byte, benchValueSize())
	per := max(b.N/writers, 1)
	b.ResetTimer()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range per {
				key := binary.BigEndian.AppendUint64(nil, uint64(w*per+i))
				if err := db.Batch(func(tx *bolt.Tx) error { return tx.Bucket([]byte("events")).Put(key, val) }); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	report(b, per*writers, baseline)
}

// benchStore opens a store for a benchmark.
func benchStore(b *testing.B, noSync bool) *store.Store {
	s, err := store.Open(filepath.Join(b.TempDir(), "runs.db"), store.Options{NoSync: noSync})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	return s
}

// benchAppend appends b.N events to one run (persist, then publish) and,
// with watchers, stops the clock when every watcher has received them all.
func benchAppend(b *testing.B, noSync bool, watchers int) {
	baseline := plainPutRate(b, noSync, baselineCount(b, noSync))
	ctx := context.Background()
	s := benchStore(b, noSync)
	h := NewHub(s, Options{})
	newRun(b, s, "r1")
	var wg sync.WaitGroup
	for range watchers {
		sub, err := h.Subscribe(ctx, "r1", 0)
		if err != nil {
			b.Fatal(err)
		}
		wg.Go(func() {
			defer sub.Close()
			seqs, err := drain(ctx, sub)
			if err != nil || len(seqs) != b.N {
				b.Errorf("watcher got %d of %d events: %v", len(seqs), b.N, err)
			}
		})
	}
	b.ResetTimer()
	for range b.N - 1 {
		if _, err := h.Append(ctx, "r1", benchEvent()); err != nil {
			b.Fatal(err)
		}
	}
	fin, err := s.Finish(ctx, "r1", &glv1.RunFinished{Status: glv1.RunStatus_RUN_STATUS_PASSED})
	if err != nil {
		b.Fatal(err)
	}
	h.Publish("r1", fin)
	wg.Wait()
	b.StopTimer()
	report(b, b.N, baseline)
	reportGroups(b, s)
}

// benchParallelAppend appends from several runs at once: the group-commit
// writer stores concurrent appends in shared transactions.
func benchParallelAppend(b *testing.B, noSync bool, runs int) {
	baseline := plainPutRate(b, noSync, baselineCount(b, noSync))
	ctx := context.Background()
	s := benchStore(b, noSync)
	for r := range runs {
		newRun(b, s, fmt.Sprint("r", r))
	}
	per := max(b.N/runs, 1)
	b.ResetTimer()
	var wg sync.WaitGroup
	for r := range runs {
		wg.Go(func() {
			for range per {
				if _, err := s.AppendEvent(ctx, fmt.Sprint("r", r), benchEvent()); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	report(b, per*runs, baseline)
	reportGroups(b, s)
}
