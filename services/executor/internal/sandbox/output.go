package sandbox

import (
	"fmt"
	"io"
	"os"
	"sync"
)

// tailBytes bounds the memory kept for a step's tail.
const tailBytes = 64 << 10

// stepOutput collects one step's output: the first capBytes go to a spool
// file (stored as the step's log blob), the last bytes to a tail ring, and
// everything to the live log, which may drop. Writes never block on the
// consumer and memory stays bounded whatever the step prints; once the cap
// is hit the output is still drained (so the process never stalls on a full
// pipe) and counted, only not stored.
type stepOutput struct {
	mu        sync.Mutex
	total     int64
	capBytes  int64
	stored    int64
	truncated bool
	spool     *os.File
	spoolErr  error
	tail      *tailRing
	live      *liveLog
}

func newStepOutput(dir string, capBytes int64, live LiveConfig) (*stepOutput, error) {
	f, err := os.CreateTemp(dir, "greenlight-step-*.log")
	if err != nil {
		return nil, fmt.Errorf("step log spool: %w", err)
	}
	return &stepOutput{capBytes: capBytes, spool: f, tail: newTailRing(tailBytes), live: newLiveLog(live)}, nil
}

// writer returns the io.Writer for one stream.
func (o *stepOutput) writer(s Stream) io.Writer { return streamWriter{o: o, s: s} }

type streamWriter struct {
	o *stepOutput
	s Stream
}

// Write records p and never fails: a failing spool only loses the stored
// log (reported when the step ends), never the process's output pipe.
func (w streamWriter) Write(p []byte) (int, error) {
	w.o.write(w.s, p)
	return len(p), nil
}

func (o *stepOutput) write(s Stream, p []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	offset := o.total
	o.total += int64(len(p))
	if room := o.capBytes - o.stored; room > 0 && o.spoolErr == nil {
		n := min(int64(len(p)), room)
		if _, err := o.spool.Write(p[:n]); err != nil {
			o.spoolErr = err
		}
		o.stored += n
	}
	if o.total > o.stored {
		o.truncated = true
	}
	_, _ = o.tail.Write(p)
	o.writeLive(s, p, offset)
}

// writeLive streams only the stored part of the output live: past the
// per-step cap the bytes are counted and tailed, never sent, so a step
// printing without end cannot flood the loop, its store or its watchers.
// One note says where the live stream stopped.
func (o *stepOutput) writeLive(s Stream, p []byte, offset int64) {
	if offset >= o.capBytes {
		return
	}
	if end := o.capBytes - offset; int64(len(p)) >= end {
		o.live.write(s, p[:end], offset)
		o.live.note(fmt.Sprintf("[greenlight: live output stops at the %d-byte log cap; the rest is counted, not sent]", o.capBytes), o.capBytes)
		return
	}
	o.live.write(s, p, offset)
}

// seal appends the truncation note to the spool and rewinds it for reading.
func (o *stepOutput) seal() (io.Reader, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.spoolErr != nil {
		return nil, fmt.Errorf("step log spool: %w", o.spoolErr)
	}
	if o.truncated {
		fmt.Fprintf(o.spool, "\n[greenlight: output truncated: stored the first %d of %d bytes]\n", o.stored, o.total)
	}
	if _, err := o.spool.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("step log spool: %w", err)
	}
	return o.spool, nil
}

// close removes the spool file.
func (o *stepOutput) close() {
	name := o.spool.Name()
	_ = o.spool.Close()
	_ = os.Remove(name)
}

// snapshot returns the counters and tail.
func (o *stepOutput) summary(tailLines int) (total int64, truncated bool, tail string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.total, o.truncated, o.tail.lines(tailLines)
}

// system queues a message of greenlight's own for the live stream, in order
// with the step's output; it is not part of the step's output or log.
func (o *stepOutput) system(msg string) {
	o.mu.Lock()
	offset := o.total
	o.mu.Unlock()
	o.live.note(msg, offset)
}
