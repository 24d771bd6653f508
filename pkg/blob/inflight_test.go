package blob

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestGRPCInFlightCap is ADVERSARIAL row 39: six concurrent uploads whose
// declared sizes add up to more than the server-wide in-flight cap. The ones
// over the cap are refused with ResourceExhausted naming the cap, before
// spooling anything; the others complete; no temp file is left.
func TestGRPCInFlightCap(t *testing.T) {
	const size = 1 << 20
	const limit = 3*size + size/2 // room for three uploads, not four
	r := serveBufconnWith(t, newTestStore(t), []ServerOption{WithMaxInFlightBytes(limit)})
	ctx := testContext(t)

	type upload struct {
		data   []byte
		stream glv1.BlobService_WriteClient
		done   chan error
	}
	uploads := make([]*upload, 6)
	for i := range uploads {
		u := &upload{data: randomBytes(size, uint64(100+i)), done: make(chan error, 1)}
		stream, err := r.raw.Write(ctx)
		if err != nil {
			t.Fatal(err)
		}
		u.stream = stream
		// Declare the whole blob and send its first chunk, then hold the
		// stream open: an accepted upload now occupies its reservation.
		first := &glv1.WriteRequest{Digest: DigestOf(u.data).Proto(), Data: u.data[:DefaultWriteChunkSize]}
		if err := stream.Send(first); err != nil {
			t.Fatal(err)
		}
		go func() {
			var resp glv1.WriteResponse
			u.done <- stream.RecvMsg(&resp)
		}()
		uploads[i] = u
	}

	refused, held := waitRefusals(t, uploads[:], func(u *upload) chan error { return u.done }, 3)
	if got := len(tempFiles(t, r.store)); got > 3 {
		t.Errorf("%d temp files while 3 uploads are accepted; refused uploads must not spool", got)
	}
	for _, err := range refused {
		assertRemoteError(t, fromStatus(err), codes.ResourceExhausted, ErrBusy, "cap of 3670016 bytes")
	}
	for _, u := range held {
		if err := u.stream.Send(&glv1.WriteRequest{Data: u.data[DefaultWriteChunkSize:], FinishWrite: true}); err != nil {
			t.Fatal(err)
		}
		if err := u.stream.CloseSend(); err != nil {
			t.Fatal(err)
		}
		if err := <-u.done; err != nil {
			t.Errorf("accepted upload failed: %v", err)
		}
	}
	assertNoTemp(t, r.store)
	if got := len(storedBlobs(t, r.store)); got != 3 {
		t.Errorf("%d blobs stored, want the 3 accepted uploads", got)
	}
	// The reservations were given back: a further upload goes through.
	if _, err := r.client.Put(ctx, bytes.NewReader(randomBytes(3*size, 200))); err != nil {
		t.Errorf("upload after the others finished: %v", err)
	}
}

// waitRefusals waits until want of items have answered with an error and
// returns those errors and the items still waiting.
func waitRefusals[T any](t *testing.T, items []T, done func(T) chan error, want int) ([]error, []T) {
	t.Helper()
	var errs []error
	var held []T
	deadline := time.After(10 * time.Second)
	pending := append([]T(nil), items...)
	for len(errs) < want {
		next := pending[:0]
		for _, it := range pending {
			select {
			case err := <-done(it):
				if err == nil {
					t.Fatal("an upload finished before its body was sent")
				}
				errs = append(errs, err)
			default:
				next = append(next, it)
			}
		}
		pending = next
		select {
		case <-deadline:
			t.Fatalf("%d uploads refused after 10s, want %d", len(errs), want)
		case <-time.After(10 * time.Millisecond):
		}
	}
	held = pending
	if len(held) != len(items)-want {
		t.Fatalf("%d uploads still open, want %d", len(held), len(items)-want)
	}
	// None of the held ones may be refused after a grace period either.
	time.Sleep(200 * time.Millisecond)
	for _, it := range held {
		select {
		case err := <-done(it):
			t.Fatalf("upload within the cap answered early: %v", err)
		default:
		}
	}
	return errs, held
}

// assertNoTemp fails if temp files stay in the store's temp directory.
func assertNoTemp(t *testing.T, s *Store) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for len(tempFiles(t, s)) != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := tempFiles(t, s); len(got) != 0 {
		t.Errorf("temp dir holds %s, want nothing", strings.Join(got, ", "))
	}
}

// TestInFlightLoneUploadAdmitted: an upload larger than the cap still goes
// through when it is the only one, and holds off every other meanwhile.
func TestInFlightLoneUploadAdmitted(t *testing.T) {
	f := &inflight{cap: 100}
	if err := f.reserve(150); err != nil {
		t.Fatalf("lone over-cap upload: %v", err)
	}
	if err := f.reserve(1); !errors.Is(err, ErrBusy) {
		t.Fatalf("second upload while over the cap: %v", err)
	}
	f.release(150)
	if err := f.reserve(60); err != nil {
		t.Fatal(err)
	}
	if err := f.reserve(40); err != nil {
		t.Fatalf("upload that exactly fills the cap: %v", err)
	}
	if err := f.reserve(1); !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), "cap of 100 bytes") {
		t.Fatalf("upload past a full cap: %v", err)
	}
}
