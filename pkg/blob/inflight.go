package blob

import (
	"fmt"
	"sync"
)

// DefaultMaxInFlightBytes is the server-wide cap on the declared sizes of the
// uploads a BlobService server receives at once. Each upload spools to a temp
// file until it is verified, so without it N concurrent uploads may hold N
// times the per-blob maximum on disk.
const DefaultMaxInFlightBytes int64 = 2 << 30

// inflight reserves the declared sizes of uploads in progress against a cap.
type inflight struct {
	mu   sync.Mutex
	cap  int64
	used int64
}

// reserve books n bytes, or returns ErrBusy naming the cap when that would
// exceed it. A lone upload is always admitted, so that every blob the store
// accepts can be uploaded: the disk held is at most the larger of the cap and
// the store's maximum blob size. A successful reservation must be given back
// with release.
func (f *inflight) reserve(n int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cap <= 0 {
		return nil
	}
	if f.used > 0 && n > f.cap-f.used {
		return fmt.Errorf("%w: this %d-byte upload would bring the bytes of uploads in flight to %d, over the server's cap of %d bytes (the blob server's max in-flight bytes setting); retry when other uploads have finished",
			ErrBusy, n, f.used+n, f.cap)
	}
	f.used += n
	return nil
}

// release gives back a reservation.
func (f *inflight) release(n int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cap > 0 {
		f.used -= n
	}
}

// WithMaxInFlightBytes sets the server-wide cap on the declared bytes of
// uploads in progress (default DefaultMaxInFlightBytes). An upload that would
// exceed it is refused with ResourceExhausted before any byte is spooled. A
// negative value disables the cap.
func WithMaxInFlightBytes(n int64) ServerOption {
	return func(s *server) {
		if n != 0 {
			s.inflight.cap = n
		}
	}
}
