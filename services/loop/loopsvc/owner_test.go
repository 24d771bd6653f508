package loopsvc_test

import (
	"context"
	"io"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

// The executor learns who a run is for from the loop: the identity the
// gateway put in the call's metadata, else the loop's own user. Runs for
// different owners never share dependency-cache entries.
func TestExecuteRequestCarriesTheOwner(t *testing.T) {
	e := newEnv(t, enginetest.CalcSteps()...)
	run := func(ctx context.Context, snap *glv1.Digest) (string, error) {
		t.Helper()
		stream, err := e.runs.Verify(ctx, &glv1.VerifyRequest{Snapshot: snap})
		if err != nil {
			t.Fatal(err)
		}
		for {
			if _, err := stream.Recv(); err == io.EOF {
				break
			} else if err != nil {
				return "", err
			}
		}
		reqs := e.exec.Requests()
		return reqs[len(reqs)-1].GetOwner(), nil
	}
	if got, err := run(e.ctx(), e.snapshot(fixedFiles())); err != nil || got != engine.LocalOwner() {
		t.Errorf("owner without a gateway = %q, %v; want the loop's user %q", got, err, engine.LocalOwner())
	}
	ctx := metadata.AppendToOutgoingContext(e.ctx(), server.OwnerKey, "token:0123456789ab")
	// The tenant verifies a snapshot it uploaded itself.
	if got, err := run(ctx, enginetest.Snapshot(t, ownerPutter{e.blobs, ctx}, fixedFiles())); err != nil || got != "token:0123456789ab" {
		t.Errorf("owner from the gateway = %q, %v", got, err)
	}
	// A malformed owner header sees nothing, not everything: not even a
	// snapshot the loop holds.
	bad := metadata.AppendToOutgoingContext(e.ctx(), server.OwnerKey, "bad owner")
	if _, err := run(bad, e.snapshot(fixedFiles())); status.Code(err) != codes.InvalidArgument {
		t.Errorf("a malformed owner header verified a snapshot: %v", err)
	}
}

// ownerPutter uploads through BlobService as the caller ctx names.
type ownerPutter struct {
	blobs *blob.Client
	ctx   context.Context
}

func (p ownerPutter) Put(_ context.Context, r io.Reader) (blob.Digest, error) {
	return p.blobs.Put(p.ctx, r)
}
