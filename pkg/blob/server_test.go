package blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// clientSizes: empty, tiny, around the 256 KiB gRPC chunk, several chunks.
var clientSizes = []int{0, 1, DefaultWriteChunkSize - 1, DefaultWriteChunkSize, DefaultWriteChunkSize + 1, 3*DefaultReadChunkSize + 17}

func TestGRPCRoundTrip(t *testing.T) {
	transports := []struct {
		name  string
		serve func(testing.TB, *Store) *remote
	}{
		{"bufconn", func(t testing.TB, s *Store) *remote { return serveBufconn(t, s) }},
		{"tcp", serveTCP},
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			r := tr.serve(t, newTestStore(t))
			for _, n := range clientSizes {
				t.Run(fmt.Sprint(n), func(t *testing.T) {
					data := randomBytes(n, uint64(n)+1)
					d, err := r.client.Put(testContext(t), bytes.NewReader(data))
					if err != nil || d != DigestOf(data) {
						t.Fatalf("Put = %v, %v; want %v", d, err, DigestOf(data))
					}
					assertContent(t, r.client, d, data) // over the wire
					assertContent(t, r.store, d, data)  // on the server's disk
				})
			}
		})
	}
}

func TestClientPutSpoolsNonSeekableReaders(t *testing.T) {
	spool := t.TempDir()
	r := serveBufconn(t, newTestStore(t), WithSpoolDir(spool))
	data := randomBytes(DefaultWriteChunkSize*2+3, 11)
	// io.MultiReader hides the Seek of the bytes.Reader.
	d, err := r.client.Put(testContext(t), io.MultiReader(bytes.NewReader(data)))
	if err != nil || d != DigestOf(data) {
		t.Fatalf("Put = %v, %v", d, err)
	}
	assertContent(t, r.store, d, data)
	if left, _ := os.ReadDir(spool); len(left) != 0 {
		t.Fatalf("spool files left: %v", left)
	}
}

func TestClientPutFromSeekerOffset(t *testing.T) {
	r := serveBufconn(t, newTestStore(t))
	src := bytes.NewReader([]byte("skip-this|upload this"))
	if _, err := src.Seek(10, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	d, err := r.client.Put(testContext(t), src)
	if want := DigestOf([]byte("upload this")); err != nil || d != want {
		t.Fatalf("Put = %v, %v; want %v (from the reader's offset)", d, err, want)
	}
}

func TestClientPutVerifiedMismatch(t *testing.T) {
	data := []byte("0123456789")
	tests := []struct {
		name string
		want Digest
		body []byte
		msg  string
	}{
		{"hash", DigestOf([]byte("abcdefghij")), data, "same size, different content"},
		{"size larger than sent", Digest{Hash: DigestOf(data).Hash, Size: 12}, data, "size 10 instead of 12"},
		{"more sent than declared", DigestOf(data[:4]), data, "received more than 4 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := serveBufconn(t, newTestStore(t))
			_, err := r.client.PutVerified(testContext(t), tt.want, bytes.NewReader(tt.body))
			assertRemoteError(t, err, codes.InvalidArgument, ErrDigestMismatch, tt.msg)
			if !strings.Contains(err.Error(), "declared "+tt.want.String()) {
				t.Errorf("message %q does not name the declared digest", err)
			}
			assertEmpty(t, r.store)
		})
	}
}

// assertRemoteError checks both the gRPC code and the mapped sentinel.
func assertRemoteError(t *testing.T, err error, code codes.Code, sentinel error, msg string) {
	t.Helper()
	if got := status.Code(err); got != code {
		t.Errorf("status code = %v (%v), want %v", got, err, code)
	}
	if !errors.Is(err, sentinel) {
		t.Errorf("errors.Is(%v, %v) = false", err, sentinel)
	}
	if err != nil && !strings.Contains(err.Error(), msg) {
		t.Errorf("message %q does not contain %q", err, msg)
	}
}

func TestGRPCSizeCap(t *testing.T) {
	const maxSize = 100 << 10
	tests := []struct {
		name string
		size int
	}{
		{"one byte over", maxSize + 1},
		{"many chunks over", 8 * DefaultWriteChunkSize},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := serveBufconn(t, newTestStore(t, WithMaxSize(maxSize)))
			_, err := r.client.Put(testContext(t), bytes.NewReader(randomBytes(tt.size, 1)))
			assertRemoteError(t, err, codes.ResourceExhausted, ErrTooLarge, "exceeds the limit of 102400 bytes")
			assertEmpty(t, r.store)
		})
	}
}

func TestGRPCSizeCapAnswersBeforeTheBody(t *testing.T) {
	r := serveBufconn(t, newTestStore(t, WithMaxSize(1000)))
	stream, err := r.raw.Write(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	// Declare 1 GiB, send only the first message: the server must refuse on
	// the declaration alone rather than wait for (or buffer) the body.
	huge := Digest{Hash: emptyHash, Size: 1 << 30}
	if err := stream.Send(&glv1.WriteRequest{Digest: huge.Proto(), Data: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := stream.CloseAndRecv()
		done <- err
	}()
	select {
	case err := <-done:
		assertRemoteError(t, fromStatus(err), codes.ResourceExhausted, ErrTooLarge, "declared size 1073741824 bytes")
	case <-time.After(10 * time.Second):
		t.Fatal("no answer to an over-sized declaration")
	}
	assertEmpty(t, r.store)
}

func TestGRPCConcurrentSameDigest(t *testing.T) {
	r := serveBufconn(t, newTestStore(t))
	data := randomBytes(2*DefaultWriteChunkSize+9, 77)
	want := DigestOf(data)
	const writers = 16
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			d, err := r.client.Put(context.Background(), bytes.NewReader(data))
			if err == nil && d != want {
				err = fmt.Errorf("digest %v, want %v", d, want)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	if got := storedBlobs(t, r.store); len(got) != 1 || got[0] != want {
		t.Fatalf("stored %v, want exactly %v", got, want)
	}
	assertContent(t, r.client, want, data)
}

func TestGRPCWriteAlreadyExisted(t *testing.T) {
	r := serveBufconn(t, newTestStore(t))
	ctx := testContext(t)
	data := randomBytes(DefaultWriteChunkSize+1, 8)
	d, err := r.store.Put(ctx, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		body    []byte
		wantErr error
		msg     string
	}{
		{"same bytes", data, nil, ""},
		{"more bytes than declared", append(append([]byte{}, data...), 1), ErrDigestMismatch, "received more than"},
		// Claiming a stored blob takes its bytes: with an access policy a
		// finished upload opens the blob to the uploader.
		{"same size, other bytes", append([]byte{data[0] ^ 1}, data[1:]...), ErrDigestMismatch, "same size, different content"},
		{"fewer bytes than declared", data[:len(data)-1], ErrDigestMismatch, "size"},
		{"nothing but the digest", nil, ErrDigestMismatch, "size 0 instead of"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := rawWrite(ctx, r.raw, d.Proto(), tt.body, 64<<10)
			if tt.wantErr != nil {
				assertRemoteError(t, fromStatus(err), codes.InvalidArgument, tt.wantErr, tt.msg)
				return
			}
			if err != nil || !resp.GetAlreadyExisted() || resp.GetDigest().GetHash() != d.Hash {
				t.Fatalf("Write = %v, %v; want already_existed for %v", resp, err, d)
			}
		})
	}
}

// rawWrite uploads body with the generated client, bypassing Client's checks.
func rawWrite(ctx context.Context, raw glv1.BlobServiceClient, d *glv1.Digest, body []byte, chunk int) (*glv1.WriteResponse, error) {
	stream, err := raw.Write(ctx)
	if err != nil {
		return nil, err
	}
	first := true
	for first || len(body) > 0 {
		n := min(chunk, len(body))
		req := &glv1.WriteRequest{Data: body[:n], FinishWrite: n == len(body)}
		if first {
			req.Digest, first = d, false
		}
		body = body[n:]
		if err := stream.Send(req); err != nil {
			break // the server ended the call; CloseAndRecv says why
		}
	}
	return stream.CloseAndRecv()
}

func TestGRPCWriteRejectsBadFirstMessage(t *testing.T) {
	tests := []struct {
		name   string
		digest *glv1.Digest
		body   []byte
		send   bool
		msg    string
	}{
		{"no digest", nil, []byte("data"), true, "first WriteRequest must carry the blob's digest: invalid digest: digest is missing"},
		{"malformed hash", &glv1.Digest{Hash: "zz", SizeBytes: 4}, []byte("data"), true, "64 lowercase hex characters, got 2"},
		{"negative size", &glv1.Digest{Hash: emptyHash, SizeBytes: -4}, nil, true, "size must not be negative"},
		{"empty stream", nil, nil, false, "upload stream is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := serveBufconn(t, newTestStore(t))
			var err error
			if tt.send {
				_, err = rawWrite(testContext(t), r.raw, tt.digest, tt.body, 1024)
			} else {
				var stream glv1.BlobService_WriteClient
				stream, err = r.raw.Write(testContext(t))
				if err == nil {
					_, err = stream.CloseAndRecv()
				}
			}
			assertRemoteError(t, fromStatus(err), codes.InvalidArgument, ErrInvalidDigest, tt.msg)
			assertEmpty(t, r.store)
		})
	}
}

func TestGRPCReadRange(t *testing.T) {
	r := serveBufconn(t, newTestStore(t))
	ctx := testContext(t)
	data := randomBytes(3*DefaultReadChunkSize+100, 21)
	d, err := r.client.Put(ctx, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	size := int64(len(data))
	tests := []struct {
		name          string
		offset, limit int64
		want          []byte
		code          codes.Code
		sentinel      error
	}{
		{"whole", 0, 0, data, codes.OK, nil},
		{"offset", 5, 0, data[5:], codes.OK, nil},
		{"offset and limit across chunks", DefaultReadChunkSize - 3, DefaultReadChunkSize + 6, data[DefaultReadChunkSize-3 : 2*DefaultReadChunkSize+3], codes.OK, nil},
		{"limit past end", size - 2, 100, data[size-2:], codes.OK, nil},
		{"offset at end", size, 0, []byte{}, codes.OK, nil},
		{"offset beyond end", size + 1, 0, nil, codes.OutOfRange, ErrOutOfRange},
		{"negative offset", -1, 0, nil, codes.InvalidArgument, ErrInvalidRange},
		{"negative limit", 0, -5, nil, codes.InvalidArgument, ErrInvalidRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readRange(ctx, r.client, d, tt.offset, tt.limit)
			if tt.code != codes.OK {
				assertRemoteError(t, err, tt.code, tt.sentinel, "")
				return
			}
			if err != nil || !bytes.Equal([]byte(got), tt.want) {
				t.Fatalf("OpenRange(%d, %d) = %d bytes, %v; want %d bytes", tt.offset, tt.limit, len(got), err, len(tt.want))
			}
		})
	}
}

func TestGRPCLookupErrors(t *testing.T) {
	r := serveBufconn(t, newTestStore(t))
	ctx := testContext(t)
	unknown := DigestOf([]byte("never stored"))
	bad := &glv1.Digest{Hash: "ABCDEF", SizeBytes: 1}

	_, err := r.client.Open(ctx, unknown)
	assertRemoteError(t, err, codes.NotFound, ErrNotFound, unknown.String())

	size, found, err := r.client.Stat(ctx, unknown)
	if err != nil || found || size != 0 {
		t.Errorf("Stat(unknown) = %d, %v, %v; want not found", size, found, err)
	}

	// Malformed digests sent as-is (Client itself refuses them before sending).
	stream, err := r.raw.Read(ctx, &glv1.ReadRequest{Digest: bad})
	if err == nil {
		_, err = stream.Recv()
	}
	assertRemoteError(t, fromStatus(err), codes.InvalidArgument, ErrInvalidDigest, "64 lowercase hex characters")
	_, err = r.raw.Stat(ctx, &glv1.StatRequest{Digest: bad})
	assertRemoteError(t, fromStatus(err), codes.InvalidArgument, ErrInvalidDigest, "64 lowercase hex characters")
	_, err = r.raw.Stat(ctx, &glv1.StatRequest{})
	assertRemoteError(t, fromStatus(err), codes.InvalidArgument, ErrInvalidDigest, "digest is missing")

	if _, err := r.client.Open(ctx, Digest{Hash: "ABCDEF", Size: 1}); !errors.Is(err, ErrInvalidDigest) {
		t.Errorf("Client.Open(malformed) = %v, want ErrInvalidDigest", err)
	}
}

func TestClientOpenCloseCancelsStream(t *testing.T) {
	r := serveBufconn(t, newTestStore(t))
	ctx := testContext(t)
	data := randomBytes(8*DefaultReadChunkSize, 4)
	d, err := r.client.Put(ctx, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := r.client.Open(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	head := make([]byte, 10)
	if _, err := io.ReadFull(rc, head); err != nil || !bytes.Equal(head, data[:10]) {
		t.Fatalf("first bytes = %v, %v", head, err)
	}
	if err := rc.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := rc.Read(head); !errors.Is(err, os.ErrClosed) {
		t.Fatalf("Read after Close = %v, want os.ErrClosed", err)
	}
	// Chunks already buffered in the transport may still be delivered after
	// the cancel (grpc-go picks between a ready message and ctx.Done at
	// random); the stream must end Canceled before the blob could be read
	// to its end.
	rs := rc.(*readStream)
	var recvErr error
	for i := 0; i < 8 && recvErr == nil; i++ {
		_, recvErr = rs.stream.Recv()
	}
	if status.Code(recvErr) != codes.Canceled {
		t.Fatalf("stream after Close: Recv = %v, want Canceled", recvErr)
	}
}

func TestClientUploadAbortedMidStream(t *testing.T) {
	r := serveBufconn(t, newTestStore(t))
	full := randomBytes(4*DefaultWriteChunkSize, 13)
	boom := errors.New("disk read error")
	_, err := r.client.PutVerified(testContext(t), DigestOf(full), &failingReader{data: full[:2*DefaultWriteChunkSize+5], err: boom})
	if !errors.Is(err, boom) {
		t.Fatalf("PutVerified = %v, want the reader's error", err)
	}
	assertEmpty(t, r.store) // the server saw the cancel and dropped its temp file
}

func TestClientSkipsUploadOfExistingBlob(t *testing.T) {
	r := serveBufconn(t, newTestStore(t))
	data := []byte("already here")
	d, err := r.store.Put(testContext(t), bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	// A reader that fails if touched proves that nothing was sent.
	got, err := r.client.PutVerified(testContext(t), d, &failingReader{err: errors.New("read, but the blob exists")})
	if err != nil || got != d {
		t.Fatalf("PutVerified = %v, %v; want %v without reading", got, err, d)
	}
}

func TestFromStatusMapping(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		sentinel error
	}{
		{"not found by code", status.Error(codes.NotFound, "x"), ErrNotFound},
		{"too large by code", status.Error(codes.ResourceExhausted, "x"), ErrTooLarge},
		{"out of range by code", status.Error(codes.OutOfRange, "x"), ErrOutOfRange},
		{"canceled", status.Error(codes.Canceled, "x"), context.Canceled},
		{"deadline", status.Error(codes.DeadlineExceeded, "x"), context.DeadlineExceeded},
	}
	for _, m := range errorCodes {
		st, _ := toStatus(fmt.Errorf("%w: detail", m.err))
		tests = append(tests, struct {
			name     string
			err      error
			sentinel error
		}{"round trip " + m.reason, st, m.err})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fromStatus(tt.err)
			if !errors.Is(got, tt.sentinel) {
				t.Fatalf("fromStatus(%v) = %v, want %v", tt.err, got, tt.sentinel)
			}
			if status.Code(got) != status.Code(tt.err) {
				t.Fatalf("code changed: %v → %v", status.Code(tt.err), status.Code(got))
			}
		})
	}
	// A bare InvalidArgument names no sentinel: it stays a plain status.
	plain := status.Error(codes.InvalidArgument, "x")
	for _, m := range errorCodes {
		if errors.Is(fromStatus(plain), m.err) {
			t.Errorf("bare InvalidArgument mapped to %v", m.err)
		}
	}
	// Unexpected errors do not leak their text.
	st, internal := toStatus(errors.New("open /secret/path: permission denied"))
	if !internal || status.Code(st) != codes.Internal || strings.Contains(st.Error(), "/secret") {
		t.Fatalf("toStatus(unexpected) = %v, internal=%v", st, internal)
	}
}
