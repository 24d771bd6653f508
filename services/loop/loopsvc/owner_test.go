package loopsvc_test

import (
	"context"
	"io"
	"testing"

	"google.golang.org/grpc/metadata"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

// The executor learns who a run is for from the loop: the identity the
// gateway put in the call's metadata, else the loop's own user. Runs for
// different owners never share dependency-cache entries.
func TestExecuteRequestCarriesTheOwner(t *testing.T) {
	e := newEnv(t, enginetest.CalcSteps()...)
	run := func(ctx context.Context) string {
		t.Helper()
		stream, err := e.runs.Verify(ctx, &glv1.VerifyRequest{Snapshot: e.snapshot(fixedFiles())})
		if err != nil {
			t.Fatal(err)
		}
		for {
			if _, err := stream.Recv(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
		}
		reqs := e.exec.Requests()
		return reqs[len(reqs)-1].GetOwner()
	}
	if got, want := run(e.ctx()), engine.LocalOwner(); got != want {
		t.Errorf("owner without a gateway = %q, want the loop's user %q", got, want)
	}
	ctx := metadata.AppendToOutgoingContext(e.ctx(), server.OwnerKey, "token:0123456789ab")
	if got := run(ctx); got != "token:0123456789ab" {
		t.Errorf("owner from the gateway = %q", got)
	}
	ctx = metadata.AppendToOutgoingContext(e.ctx(), server.OwnerKey, "bad owner")
	if got, want := run(ctx), engine.LocalOwner(); got != want {
		t.Errorf("a malformed owner header gave %q, want the loop's user %q", got, want)
	}
}
