package limit

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// idleAfter is how long an unused bucket is kept; a client that comes back
// later starts with a full bucket, which is what it would have by then.
const idleAfter = 10 * time.Minute

// sweepEvery bounds how often Allow scans for idle buckets.
const sweepEvery = time.Minute

// Limiter holds one token bucket per client key. A nil Limiter allows
// everything.
type Limiter struct {
	limit rate.Limit
	burst int
	now   func() time.Time

	mu        sync.Mutex
	clients   map[string]*client
	lastSweep time.Time
}

type client struct {
	bucket *rate.Limiter
	seen   time.Time
}

// New returns a limiter granting each client perSecond requests per second
// with bursts of burst. perSecond <= 0 disables limiting (nil Limiter).
func New(perSecond float64, burst int) *Limiter {
	if perSecond <= 0 {
		return nil
	}
	return &Limiter{limit: rate.Limit(perSecond), burst: max(burst, 1), now: time.Now, clients: map[string]*client{}}
}

// Allow takes one token from key's bucket. When the bucket is empty it
// returns false and how long until a token is available.
func (l *Limiter) Allow(key string) (ok bool, retryAfter time.Duration) {
	if l == nil {
		return true, 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	c := l.clients[key]
	if c == nil {
		c = &client{bucket: rate.NewLimiter(l.limit, l.burst)}
		l.clients[key] = c
	}
	c.seen = now
	r := c.bucket.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		// Refused requests must not queue up future tokens.
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// Clients returns how many buckets are held (for tests and metrics).
func (l *Limiter) Clients() int {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.clients)
}

// sweep drops buckets idle for idleAfter, at most once per sweepEvery, so
// that memory follows the number of recent clients.
func (l *Limiter) sweep(now time.Time) {
	if now.Sub(l.lastSweep) < sweepEvery {
		return
	}
	l.lastSweep = now
	for k, c := range l.clients {
		if now.Sub(c.seen) > idleAfter {
			delete(l.clients, k)
		}
	}
}
