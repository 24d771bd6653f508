package sandbox

import (
	"context"
	"sync"
	"time"
)

// chunk is a contiguous piece of one stream's output.
type chunk struct {
	stream Stream
	data   []byte
	offset int64
}

// liveLog turns a step's output into live LogChunks: it coalesces writes
// into chunks of at most ChunkBytes (flushed every FlushEvery), cuts only at
// UTF-8 character boundaries, sends at most RateBytes per second, and drops
// output instead of blocking the writer once MaxPendingBytes wait unsent.
// Dropped ranges show as gaps in the chunks' offsets; the stored log is not
// affected.
type liveLog struct {
	cfg  LiveConfig
	wake chan struct{}

	mu      sync.Mutex
	cur     chunk
	ready   []chunk
	pending int
	dropped int64
}

func newLiveLog(cfg LiveConfig) *liveLog {
	return &liveLog{cfg: cfg, wake: make(chan struct{}, 1)}
}

// write takes p, the output of stream starting at offset. It never blocks
// on the consumer.
func (l *liveLog) write(stream Stream, p []byte, offset int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.cur.data) > 0 && (l.cur.stream != stream || l.cur.offset+int64(len(l.cur.data)) != offset) {
		l.finishCur(false)
	}
	if room := l.cfg.MaxPendingBytes - l.pending; len(p) > room {
		l.dropped += int64(len(p) - max(room, 0))
		p = p[:max(room, 0)]
	}
	full := false
	for len(p) > 0 {
		if len(l.cur.data) == 0 {
			l.cur.stream, l.cur.offset = stream, offset
		}
		n := min(len(p), l.cfg.ChunkBytes-len(l.cur.data))
		l.cur.data = append(l.cur.data, p[:n]...)
		p, offset, l.pending = p[n:], offset+int64(n), l.pending+n
		if len(l.cur.data) >= l.cfg.ChunkBytes {
			l.finishCur(true)
			full = true
		}
	}
	if full {
		select {
		case l.wake <- struct{}{}:
		default:
		}
	}
}

// finishCur moves the chunk being filled to the ready list. With carry, an
// incomplete UTF-8 sequence at its end stays behind to start the next chunk.
func (l *liveLog) finishCur(carry bool) {
	c := l.cur
	l.cur = chunk{}
	if carry {
		if k := incompleteSuffix(c.data); k > 0 && k < len(c.data) {
			cut := len(c.data) - k
			l.cur = chunk{stream: c.stream, data: append([]byte(nil), c.data[cut:]...), offset: c.offset + int64(cut)}
			c.data = c.data[:cut]
		} else if k > 0 {
			l.cur = c // only a partial character so far: wait for the rest
			return
		}
	}
	if len(c.data) > 0 {
		l.ready = append(l.ready, c)
	}
}

// take returns the chunks ready to send; with all, the one being filled too.
func (l *liveLog) take(all bool) []chunk {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.finishCur(!all)
	out := l.ready
	l.ready = nil
	return out
}

// sent releases n bytes of the pending budget.
func (l *liveLog) sent(n int) {
	l.mu.Lock()
	l.pending -= n
	l.mu.Unlock()
}

// run sends chunks with send until done is closed, then sends what is left
// (without rate limiting: at most MaxPendingBytes) and returns.
func (l *liveLog) run(ctx context.Context, done <-chan struct{}, send func(chunk) error) {
	tick := time.NewTicker(l.cfg.FlushEvery)
	defer tick.Stop()
	bucket := newTokenBucket(l.cfg.RateBytes, l.cfg.BurstBytes)
	for {
		select {
		case <-done:
			for _, c := range l.take(true) {
				_ = send(c)
			}
			return
		case <-tick.C:
		case <-l.wake:
		}
		for _, c := range l.take(false) {
			if bucket.wait(ctx, done, len(c.data)) {
				_ = send(c)
			}
			if c.stream != StreamSystem {
				l.sent(len(c.data))
			}
		}
	}
}

// tokenBucket limits bytes per second.
type tokenBucket struct {
	rate, burst float64
	tokens      float64
	last        time.Time
}

func newTokenBucket(rate, burst int) *tokenBucket {
	return &tokenBucket{rate: float64(rate), burst: float64(burst), tokens: float64(burst), last: time.Now()}
}

// wait blocks until n bytes may be sent. It returns false when ctx ended
// (the chunk is dropped) and true at once when done is closed (the step has
// ended: what is left is bounded and goes out without limit).
func (b *tokenBucket) wait(ctx context.Context, done <-chan struct{}, n int) bool {
	now := time.Now()
	b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	b.last = now
	need := float64(n) - b.tokens
	if need > 0 {
		t := time.NewTimer(time.Duration(need / b.rate * float64(time.Second)))
		defer t.Stop()
		select {
		case <-ctx.Done():
			return false
		case <-done:
			return true
		case <-t.C:
		}
		b.tokens += need
		b.last = time.Now()
	}
	b.tokens -= float64(n)
	return true
}

// note queues a system message after what was written so far. Notes are
// few and short, so they bypass the pending budget and are never dropped.
func (l *liveLog) note(msg string, offset int64) {
	l.mu.Lock()
	l.finishCur(true)
	l.ready = append(l.ready, chunk{stream: StreamSystem, data: []byte(msg), offset: offset})
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}
