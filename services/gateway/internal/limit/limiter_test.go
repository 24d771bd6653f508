package limit

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
)

// fakeClock is a settable time source.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func newTestLimiter(perSecond float64, burst int) (*Limiter, *fakeClock) {
	clock := &fakeClock{t: time.Unix(1_000_000, 0)}
	l := New(perSecond, burst)
	l.now = clock.now
	return l, clock
}

func TestAllowPerKeyBuckets(t *testing.T) {
	l, clock := newTestLimiter(2, 3)
	for i := range 3 {
		if ok, _ := l.Allow("a"); !ok {
			t.Fatalf("request %d within the burst refused", i)
		}
	}
	ok, wait := l.Allow("a")
	if ok || wait <= 0 || wait > 500*time.Millisecond {
		t.Fatalf("4th request = %v, retry %v; want refused with a wait up to 500ms", ok, wait)
	}
	if ok, _ := l.Allow("b"); !ok {
		t.Fatal("another client was throttled by a's traffic")
	}
	// Refusals must not push a's next token further away.
	for range 10 {
		l.Allow("a")
	}
	clock.t = clock.t.Add(500 * time.Millisecond)
	if ok, _ := l.Allow("a"); !ok {
		t.Fatal("a token should be back after 1/rate")
	}
}

func TestIdleBucketsAreSwept(t *testing.T) {
	l, clock := newTestLimiter(1, 1)
	l.Allow("old")
	clock.t = clock.t.Add(idleAfter + sweepEvery + time.Second)
	l.Allow("new")
	if got := l.Clients(); got != 1 {
		t.Fatalf("clients = %d after the sweep, want 1", got)
	}
}

func TestDisabledLimiter(t *testing.T) {
	var l *Limiter = New(0, 10)
	for range 1000 {
		if ok, _ := l.Allow("x"); !ok {
			t.Fatal("disabled limiter refused")
		}
	}
}

func TestGateRetryInfo(t *testing.T) {
	l, _ := newTestLimiter(1, 1)
	ctx := peer.NewContext(context.Background(), &peer.Peer{Addr: &net.TCPAddr{IP: net.IPv4(10, 0, 0, 7), Port: 4242}})
	gate := l.Gate()
	call := func(method string) error {
		_, err := gate(ctx, method, nil)
		return err
	}
	if err := call("/greenlight.v1.RunService/GetRun"); err != nil {
		t.Fatal(err)
	}
	err := call("/greenlight.v1.RunService/GetRun")
	st := status.Convert(err)
	if st.Code() != codes.ResourceExhausted {
		t.Fatalf("second call = %v, want ResourceExhausted", err)
	}
	var hint *errdetails.RetryInfo
	for _, d := range st.Details() {
		if ri, ok := d.(*errdetails.RetryInfo); ok {
			hint = ri
		}
	}
	if hint == nil || hint.GetRetryDelay().AsDuration() <= 0 {
		t.Fatalf("no RetryInfo detail in %v", st.Details())
	}
	if err := call("/grpc.health.v1.Health/Check"); err != nil {
		t.Fatalf("health was limited: %v", err)
	}
}

func TestMiddleware(t *testing.T) {
	l, _ := newTestLimiter(1, 2)
	h := l.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}), "/healthz")
	codes := []int{}
	for range 3 {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/runs/x", nil)
		req.RemoteAddr = "192.0.2.1:5555"
		h.ServeHTTP(rec, req)
		codes = append(codes, rec.Code)
		if rec.Code == http.StatusTooManyRequests && rec.Header().Get("Retry-After") != "1" {
			t.Fatalf("Retry-After = %q", rec.Header().Get("Retry-After"))
		}
	}
	if codes[0] != 200 || codes[1] != 200 || codes[2] != http.StatusTooManyRequests {
		t.Fatalf("codes = %v, want 200 200 429", codes)
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/healthz", nil)
	req.RemoteAddr = "192.0.2.1:5555"
	h.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Fatalf("healthz limited: %d", rec.Code)
	}
}
