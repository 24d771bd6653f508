package events

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
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
// one transaction each: the floor any durable event log on bbolt pays with
// one transaction per event (the old path). Each benchmark measures it
// right before and right after its own run, because fsync latency on shared
// disks drifts by a factor of two within seconds.
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

// report adds events/s and the ratio to the paired one-transaction-per-event
// baseline: the mean of before (measured right before the benchmark's run)
// and the same measured again right after it.
func report(b *testing.B, noSync bool, events int, before float64) {
	rate := float64(events) / b.Elapsed().Seconds()
	baseline := (before + plainPutRate(b, noSync, baselineCount(b, noSync))) / 2
	b.ReportMetric(rate, "events/s")
	b.ReportMetric(baseline, "one_tx_per_event/s")
	b.ReportMetric(rate/baseline, "x_one_tx_per_event")
	b.ReportMetric(load1(), "load1")
	b.ReportMetric(0, "ns/op")
}

// load1 is the machine's one-minute load average (0 where unknown).
func load1() float64 {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(raw))
	if len(fields) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(fields[0], 64)
	return v
}

// reportGroups adds how many appends shared a commit.
func reportGroups(b *testing.B, s *store.Store) {
	st := s.WriterStats()
	if st.Commits > 0 {
		b.ReportMetric(float64(st.Appends)/float64(st.Commits), "events/commit")
	}
}

// BenchmarkEventThroughput measures durable event appends through the
// hub, with live delivery, against one transaction per event (a plain bbolt
// Put loop, the old path's floor) measured in the same run right before:
// x_one_tx_per_event is the group commit's gain. load1 is the machine's
// load average when the benchmark ended.
func BenchmarkEventThroughput(b *testing.B) {
	for _, noSync := range []bool{false, true} {
		mode := "fsync"
		if noSync {
			mode = "nosync"
		}
		b.Run(mode+"/one-tx-per-event", func(b *testing.B) { benchPlainPut(b, noSync) })
		b.Run(mode+"/one-run-sequential", func(b *testing.B) { benchAppend(b, noSync, 1) })
		b.Run(mode+"/one-run-sequential+100-watchers", func(b *testing.B) { benchAppend(b, noSync, 100) })
		b.Run(mode+"/one-run-burst+1-watcher", func(b *testing.B) { benchBurst(b, noSync, 1, 1) })
		b.Run(mode+"/8-runs-burst+1-watcher-each", func(b *testing.B) { benchBurst(b, noSync, 8, 1) })
		b.Run(mode+"/8-runs-burst+100-watchers-each", func(b *testing.B) { benchBurst(b, noSync, 8, 100) })
		b.Run(mode+"/64-runs-sequential+1-watcher-each", func(b *testing.B) { benchConcurrent(b, noSync, 64) })
		b.Run(mode+"/plain-db-batch-64-writers", func(b *testing.B) { benchPlainBatch(b, noSync, 64) })
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
	report(b, noSync, b.N, baseline)
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
	report(b, noSync, per*writers, baseline)
}

// benchStore opens a store for a benchmark. The per-run event cap is off:
// a run of a long benchmark would reach it.
func benchStore(b *testing.B, noSync bool) *store.Store {
	s, err := store.Open(filepath.Join(b.TempDir(), "runs.db"), store.Options{NoSync: noSync, MaxRunEvents: -1, MaxRunEventBytes: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	return s
}

// watchRuns subscribes watchers to each run and returns a wait that ends
// when every watcher has received want events of its run (the last being
// RunFinished).
func watchRuns(b *testing.B, h *Hub, runs []string, watchers int, want func(run string) int) func() {
	ctx := context.Background()
	var wg sync.WaitGroup
	for _, id := range runs {
		for range watchers {
			sub, err := h.Subscribe(ctx, id, 0)
			if err != nil {
				b.Fatal(err)
			}
			wg.Go(func() {
				defer sub.Close()
				seqs, err := drain(ctx, sub)
				if err != nil || len(seqs) != want(id) {
					b.Errorf("watcher of %s got %d of %d events: %v", id, len(seqs), want(id), err)
				}
			})
		}
	}
	return wg.Wait
}

// benchRuns creates n RUNNING runs.
func benchRuns(b *testing.B, s *store.Store, n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprint("r", i)
		newRun(b, s, ids[i])
	}
	return ids
}

// benchAppend appends b.N events to one run with the synchronous Append
// (each waits for its own commit: one transaction per event) and stops the
// clock when every watcher has received them all.
func benchAppend(b *testing.B, noSync bool, watchers int) {
	baseline := plainPutRate(b, noSync, baselineCount(b, noSync))
	ctx := context.Background()
	s := benchStore(b, noSync)
	h := NewHub(s, Options{})
	runs := benchRuns(b, s, 1)
	wait := watchRuns(b, h, runs, watchers, func(string) int { return b.N })
	b.ResetTimer()
	for range b.N - 1 {
		if _, err := h.Append(ctx, runs[0], benchEvent()); err != nil {
			b.Fatal(err)
		}
	}
	finishRun(b, h, runs[0])
	wait()
	b.StopTimer()
	report(b, noSync, b.N, baseline)
	reportGroups(b, s)
}

// benchBurst queues b.N events spread over several runs, each run's events
// from its own goroutine with AppendAsync (as a producer with a burst of
// output does), and stops the clock when every watcher has received them
// all: consecutive events of a run share commits.
func benchBurst(b *testing.B, noSync bool, nRuns, watchers int) {
	baseline := plainPutRate(b, noSync, baselineCount(b, noSync))
	ctx := context.Background()
	s := benchStore(b, noSync)
	h := NewHub(s, Options{})
	runs := benchRuns(b, s, nRuns)
	per := max(b.N/nRuns, 2)
	wait := watchRuns(b, h, runs, watchers, func(string) int { return per })
	b.ResetTimer()
	var wg sync.WaitGroup
	for _, id := range runs {
		wg.Go(func() {
			var acked sync.WaitGroup
			for range per - 1 {
				acked.Add(1)
				if err := h.AppendAsync(ctx, id, benchEvent(), func(_ uint64, err error) {
					if err != nil {
						b.Error(err)
					}
					acked.Done()
				}); err != nil {
					b.Error(err)
					acked.Done()
					return
				}
			}
			acked.Wait()
			finishRun(b, h, id)
		})
	}
	wg.Wait()
	wait()
	b.StopTimer()
	report(b, noSync, per*nRuns, baseline)
	reportGroups(b, s)
}

// benchConcurrent appends from many runs at once, each waiting for every
// append (the synchronous Append): the runs share commits.
func benchConcurrent(b *testing.B, noSync bool, nRuns int) {
	baseline := plainPutRate(b, noSync, baselineCount(b, noSync))
	ctx := context.Background()
	s := benchStore(b, noSync)
	h := NewHub(s, Options{})
	runs := benchRuns(b, s, nRuns)
	per := max(b.N/nRuns, 2)
	wait := watchRuns(b, h, runs, 1, func(string) int { return per })
	b.ResetTimer()
	var wg sync.WaitGroup
	for _, id := range runs {
		wg.Go(func() {
			for range per - 1 {
				if _, err := h.Append(ctx, id, benchEvent()); err != nil {
					b.Error(err)
					return
				}
			}
			finishRun(b, h, id)
		})
	}
	wg.Wait()
	wait()
	b.StopTimer()
	report(b, noSync, per*nRuns, baseline)
	reportGroups(b, s)
}

// finishRun appends the run's RunFinished through the hub.
func finishRun(b *testing.B, h *Hub, runID string) {
	fin := &glv1.RunEvent{Kind: &glv1.RunEvent_RunFinished{RunFinished: &glv1.RunFinished{Status: glv1.RunStatus_RUN_STATUS_PASSED}}}
	if _, err := h.Append(context.Background(), runID, fin); err != nil {
		b.Error(err)
	}
}
