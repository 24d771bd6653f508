package store

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// crashRuns is how many runs the group-commit child appends to; each gets
// events from two producers at once: one queueing with AppendEventAsync
// (a burst, as a log stream), one waiting for each AppendEvent.
const crashRuns = 4

// crashRunID names the child's runs.
func crashRunID(r int) string { return fmt.Sprintf("r_crash%d", r) }

// childGroupAppend appends to crashRuns runs from 2*crashRuns goroutines
// forever and prints "acked RUN SEQ DATA" for every append acknowledged to
// its caller, i.e. durable. DATA is "PRODUCER-N" for the producer's N-th
// event. The parent kills it.
func childGroupAppend(path string) int {
	s, err := Open(path, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx := context.Background()
	for r := range crashRuns {
		if err := s.CreateRun(ctx, &glv1.Run{Id: crashRunID(r), Status: glv1.RunStatus_RUN_STATUS_RUNNING}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	lines := make(chan string, 4096)
	failed := make(chan error, 2*crashRuns)
	for r := range crashRuns {
		run := crashRunID(r)
		go func() { // the burst: never waits for its own appends
			for n := 1; ; n++ {
				data := fmt.Sprintf("a%d-%d", r, n)
				if err := s.AppendEventAsync(ctx, run, logEvent(data), func(seq uint64, err error) {
					if err != nil {
						failed <- err
						return
					}
					lines <- fmt.Sprintf("acked %s %d %s\n", run, seq, data)
				}); err != nil {
					failed <- err
					return
				}
			}
		}()
		go func() { // one event at a time
			for n := 1; ; n++ {
				data := fmt.Sprintf("s%d-%d", r, n)
				seq, err := s.AppendEvent(ctx, run, logEvent(data))
				if err != nil {
					failed <- err
					return
				}
				lines <- fmt.Sprintf("acked %s %d %s\n", run, seq, data)
			}
		}()
	}
	go printLines(lines, failed)
	err = <-failed
	fmt.Fprintln(os.Stderr, err)
	return 1
}

// printLines writes whole lines to stdout, several per write but never more
// than a pipe writes atomically, so that a kill cuts no line in half.
func printLines(lines <-chan string, failed chan<- error) {
	const pipeBuf = 4096
	var buf []byte
	for line := range lines {
		buf = append(buf[:0], line...)
	more:
		for {
			select {
			case next := <-lines:
				if len(buf)+len(next) > pipeBuf {
					if _, err := os.Stdout.Write(buf); err != nil {
						failed <- err
						return
					}
					buf = buf[:0]
				}
				buf = append(buf, next...)
			default:
				break more
			}
		}
		if _, err := os.Stdout.Write(buf); err != nil {
			failed <- err
			return
		}
	}
}

// ackedEvent is one line of the child's output.
type ackedEvent struct {
	run  string
	seq  uint64
	data string
}

// readAcks reads the child's acknowledgements, kills it once killAfter
// were read, and returns every line it printed before dying.
func readAcks(t *testing.T, out *bufio.Scanner, kill func(), killAfter int) []ackedEvent {
	t.Helper()
	var acks []ackedEvent
	killed := false
	for out.Scan() {
		f := strings.Fields(out.Text())
		if len(f) != 4 || f[0] != "acked" {
			t.Fatalf("child said %q", out.Text())
		}
		seq, err := strconv.ParseUint(f[2], 10, 64)
		if err != nil {
			t.Fatalf("child said %q: %v", out.Text(), err)
		}
		acks = append(acks, ackedEvent{run: f[1], seq: seq, data: f[3]})
		if len(acks) >= killAfter && !killed {
			kill()
			killed = true // keep reading what the child printed before dying
		}
	}
	if !killed {
		t.Fatalf("child stopped after %d acknowledgements without being killed", len(acks))
	}
	return acks
}

// readLog reads a run's whole log.
func readLog(t *testing.T, s *Store, runID string) []*glv1.RunEvent {
	t.Helper()
	var out []*glv1.RunEvent
	for {
		page, err := s.Events(context.Background(), runID, uint64(len(out)), MaxEventsLimit)
		if err != nil {
			t.Fatalf("Events(%s): %v", runID, err)
		}
		if len(page) == 0 {
			return out
		}
		out = append(out, page...)
	}
}

// TestCrashLosesNoAcknowledgedEvent SIGKILLs a process that appends from
// several goroutines through the group-commit writer, at a different point
// each round, and checks the reopened file: every event acknowledged to an
// appender is stored at the seq it was given, each run's seqs are
// contiguous from 1, and each producer's events are there in the order it
// queued them, none missing before its last stored one and none twice.
func TestCrashLosesNoAcknowledgedEvent(t *testing.T) {
	for round, killAfter := range []int{200, 1500, 4000, 9000} {
		t.Run(fmt.Sprint("kill after ", killAfter), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "runs.db")
			cmd, out, _ := startChild(t, "group", path)
			acks := readAcks(t, out, func() {
				if err := cmd.Process.Kill(); err != nil {
					t.Fatalf("kill: %v", err)
				}
			}, killAfter)
			waitKilled(t, cmd)

			s, err := Open(path, Options{})
			if err != nil {
				t.Fatalf("Open after kill: %v", err)
			}
			defer s.Close()
			stored := map[string][]*glv1.RunEvent{}
			total := 0
			for r := range crashRuns {
				id := crashRunID(r)
				stored[id] = readLog(t, s, id)
				total += len(stored[id])
				checkCrashLog(t, id, stored[id])
			}
			for _, a := range acks {
				log := stored[a.run]
				if a.seq == 0 || a.seq > uint64(len(log)) {
					t.Fatalf("acknowledged %s seq %d (%s) lost: the run stores %d events", a.run, a.seq, a.data, len(log))
				}
				if got := log[a.seq-1].GetLogChunk().GetData(); got != a.data {
					t.Fatalf("acknowledged %s seq %d was %s, the file has %s", a.run, a.seq, a.data, got)
				}
			}
			// The next start closes the runs after their last stored event.
			ids, err := s.RecoverInterrupted(context.Background(), fixedNow)
			if err != nil || len(ids) != crashRuns {
				t.Fatalf("RecoverInterrupted = %v, %v", ids, err)
			}
			for id, log := range stored {
				run, err := s.GetRun(context.Background(), id)
				if err != nil || run.GetLastSeq() != uint64(len(log)+1) || run.GetStatus() != interrupted {
					t.Errorf("run %s after recovery: last_seq %d status %s (%v); want %d INTERRUPTED", id, run.GetLastSeq(), run.GetStatus(), err, len(log)+1)
				}
			}
			t.Logf("round %d: %d acknowledged, %d stored (committed but not yet acknowledged when killed: %d)", round, len(acks), total, total-len(acks))
		})
	}
}

// checkCrashLog checks one run's log after a crash: seqs 1..n, and each
// producer's events numbered 1, 2, 3, ... in seq order.
func checkCrashLog(t *testing.T, runID string, log []*glv1.RunEvent) {
	t.Helper()
	next := map[string]int{}
	for i, ev := range log {
		if ev.GetSeq() != uint64(i+1) || ev.GetRunId() != runID {
			t.Fatalf("%s: event %d has seq %d run %q", runID, i, ev.GetSeq(), ev.GetRunId())
		}
		producer, n, ok := strings.Cut(ev.GetLogChunk().GetData(), "-")
		k, err := strconv.Atoi(n)
		if !ok || err != nil {
			t.Fatalf("%s: seq %d holds %q", runID, ev.GetSeq(), ev.GetLogChunk().GetData())
		}
		if k != next[producer]+1 {
			t.Fatalf("%s: seq %d is %s's event %d after its event %d (lost, duplicated or reordered)", runID, ev.GetSeq(), producer, k, next[producer])
		}
		next[producer] = k
	}
}
