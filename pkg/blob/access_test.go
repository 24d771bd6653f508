package blob

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// grantAccess is an Access policy over one set of readable hashes: what
// Wrote records becomes readable.
type grantAccess struct {
	mu       sync.Mutex
	readable map[string]bool
	wrote    []Digest
}

func (a *grantAccess) Readable(_ context.Context, d Digest) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.readable[d.Hash], nil
}

func (a *grantAccess) Wrote(_ context.Context, d Digest) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.readable[d.Hash] = true
	a.wrote = append(a.wrote, d)
	return nil
}

// TestAccessHidesWhatIsNotReadable: with an access policy a stored blob
// the caller may not read is answered exactly like a missing one, on Read
// and on Stat; a finished upload (new or already stored, its bytes
// checked) is reported to the policy, and a refused claim is not.
func TestAccessHidesWhatIsNotReadable(t *testing.T) {
	store := newTestStore(t)
	access := &grantAccess{readable: map[string]bool{}}
	r := serveBufconnWith(t, store, []ServerOption{WithAccess(access)})
	ctx := testContext(t)
	secret := []byte("tenant A's snapshot")
	d, err := store.Put(ctx, bytes.NewReader(secret))
	if err != nil {
		t.Fatal(err)
	}
	missing := DigestOf([]byte("never stored"))

	readErr := func(d Digest) error {
		stream, err := r.raw.Read(ctx, &glv1.ReadRequest{Digest: d.Proto()})
		if err != nil {
			return err
		}
		_, err = stream.Recv()
		return err
	}
	hidden, absent := readErr(d), readErr(missing)
	if status.Code(hidden) != codes.NotFound || status.Code(absent) != codes.NotFound {
		t.Fatalf("Read of a hidden blob = %v, of a missing one = %v; want NotFound both", hidden, absent)
	}
	if h, a := strings.ReplaceAll(status.Convert(hidden).Message(), d.String(), "D"),
		strings.ReplaceAll(status.Convert(absent).Message(), missing.String(), "D"); h != a {
		t.Errorf("hidden blob answer %q differs from a missing blob's %q", h, a)
	}
	st, err := r.raw.Stat(ctx, &glv1.StatRequest{Digest: d.Proto()})
	if err != nil || st.GetFound() || st.GetSizeBytes() != 0 {
		t.Fatalf("Stat of a hidden blob = %v, %v; want found=false, no size", st, err)
	}

	// Claiming the stored blob with other bytes of its size opens nothing.
	if _, err := rawWrite(ctx, r.raw, d.Proto(), bytes.Repeat([]byte("x"), len(secret)), 4); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("claim with other bytes = %v, want InvalidArgument", err)
	}
	if len(access.wrote) != 0 {
		t.Fatalf("a refused claim was reported: %v", access.wrote)
	}
	// Uploading the same bytes proves possession: it is reported, and the
	// blob reads back.
	resp, err := rawWrite(ctx, r.raw, d.Proto(), secret, 4)
	if err != nil || !resp.GetAlreadyExisted() {
		t.Fatalf("upload of the stored bytes = %v, %v", resp, err)
	}
	rc, err := r.client.Open(ctx, d)
	if err != nil {
		t.Fatalf("read after upload: %v", err)
	}
	got, err := io.ReadAll(rc)
	_ = rc.Close()
	if err != nil || !bytes.Equal(got, secret) {
		t.Fatalf("read back %q, %v", got, err)
	}
	// A new blob is reported as well.
	fresh := []byte("tenant B's own snapshot")
	nd, err := r.client.Put(ctx, bytes.NewReader(fresh))
	if err != nil {
		t.Fatal(err)
	}
	if len(access.wrote) != 2 || access.wrote[0] != d || access.wrote[1] != nd {
		t.Fatalf("reported uploads %v, want [%v %v]", access.wrote, d, nd)
	}
}
