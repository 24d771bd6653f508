package loopsvc_test

import (
	"context"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
	"github.com/greenlight-dev/greenlight/services/loop/loopsvc"
)

// tenantRun is one finished run and the blobs it names.
type tenantRun struct {
	id       string
	snapshot *glv1.Digest
	// log is the last step's log; logs are every step's.
	log  *glv1.Digest
	logs map[string]bool
}

// as returns ctx stamped the way the gateway stamps calls for owner.
func as(ctx context.Context, owner string, operator bool) context.Context {
	return server.WithCaller(ctx, owner, operator)
}

// verifyAs uploads a project as owner and verifies it as owner.
func verifyAs(t *testing.T, e *env, ctx context.Context, files map[string]string) tenantRun {
	t.Helper()
	snap := enginetest.Snapshot(t, ownerPutter{e.blobs, ctx}, files)
	stream, err := e.runs.Verify(ctx, &glv1.VerifyRequest{Snapshot: snap})
	if err != nil {
		t.Fatal(err)
	}
	r := tenantRun{snapshot: snap, logs: map[string]bool{}}
	for {
		resp, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		ev := resp.GetEvent()
		r.id = ev.GetRunId()
		if d := ev.GetStepFinished().GetResult().GetLogDigest(); d != nil {
			r.log = d
			r.logs[d.GetHash()] = true
		}
	}
	if r.id == "" || r.log == nil {
		t.Fatalf("run %q has no step log", r.id)
	}
	return r
}

// sameAnswer reports whether err (about a hidden thing named hidden) is
// the answer missing (about one named absent) got, code and message.
func sameAnswer(err error, hidden string, missing error, absent string) bool {
	a, b := status.Convert(err), status.Convert(missing)
	return a.Code() == b.Code() && a.Code() != codes.OK &&
		strings.ReplaceAll(a.Message(), hidden, "X") == strings.ReplaceAll(b.Message(), absent, "X")
}

// TestTenantsSeeOnlyTheirOwnRuns drives the loop as the gateway does for
// two tenants, an operator and greenlight's own services (no owner), on a
// real run store holding a run from before tenancy (no owner recorded):
// another tenant's run, its events, its blobs and its snapshot are exactly
// like ones that do not exist; the operator and internal callers see
// everything; the same holds after the loop restarts on the same files.
func TestTenantsSeeOnlyTheirOwnRuns(t *testing.T) {
	dir := t.TempDir()
	legacy := "legacy-run"
	st, err := store.Open(filepath.Join(dir, "runs.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateRun(context.Background(), &glv1.Run{Id: legacy, Kind: glv1.RunKind_RUN_KIND_VERIFY,
		CreatedAt: timestamppb.New(time.Now().Add(-time.Hour))}); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	useDir := func(c *loopsvc.Config) { c.DataDir = dir }

	e := newEnvConfig(t, useDir, enginetest.CalcSteps()...)
	base := e.ctx()
	ctxA, ctxB := as(base, "token:aaaaaaaaaaaa", false), as(base, "token:bbbbbbbbbbbb", false)
	ctxOp := as(base, "operator:cccccccccccc", true)
	runA := verifyAs(t, e, ctxA, fixedFiles())
	runB := verifyAs(t, e, ctxB, enginetest.CalcFiles)
	// Identical bytes (an install step's log) are the same blob in both
	// runs, open to both; the last step's log differs.
	if runA.logs[runB.log.GetHash()] || runB.logs[runA.log.GetHash()] {
		t.Fatal("the runs' last step logs are the same blob: the test cannot tell them apart")
	}

	check := func(t *testing.T, e *env) {
		callers := []struct {
			name  string
			ctx   context.Context
			sees  []string // run ids, newest first
			hides []tenantRun
		}{
			{"tenant A", ctxA, []string{runA.id}, []tenantRun{runB, {id: legacy}}},
			{"tenant B", ctxB, []string{runB.id}, []tenantRun{runA, {id: legacy}}},
			{"operator", ctxOp, []string{runB.id, runA.id, legacy}, nil},
			{"greenlight's own services", base, []string{runB.id, runA.id, legacy}, nil},
		}
		for _, c := range callers {
			t.Run(c.name, func(t *testing.T) {
				list, err := e.runs.ListRuns(c.ctx, &glv1.ListRunsRequest{})
				if err != nil {
					t.Fatal(err)
				}
				var ids []string
				for _, r := range list.GetRuns() {
					ids = append(ids, r.GetId())
				}
				if !slices.Equal(ids, c.sees) {
					t.Errorf("ListRuns = %v, want %v", ids, c.sees)
				}
				for _, id := range c.sees {
					if _, err := e.runs.GetRun(c.ctx, &glv1.GetRunRequest{RunId: id}); err != nil {
						t.Errorf("GetRun(%s): %v", id, err)
					}
				}
				const absent = "no-such-run"
				for _, r := range c.hides {
					_, hidden := e.runs.GetRun(c.ctx, &glv1.GetRunRequest{RunId: r.id})
					_, missing := e.runs.GetRun(c.ctx, &glv1.GetRunRequest{RunId: absent})
					if !sameAnswer(hidden, r.id, missing, absent) {
						t.Errorf("GetRun(%s) = %v; a missing run gets %v", r.id, hidden, missing)
					}
					_, hidden = e.watch(c.ctx, r.id, 0)
					_, missing = e.watch(c.ctx, absent, 0)
					if !sameAnswer(hidden, r.id, missing, absent) {
						t.Errorf("WatchRun(%s) = %v; a missing run gets %v", r.id, hidden, missing)
					}
					_, hidden = e.runs.CancelRun(c.ctx, &glv1.CancelRunRequest{RunId: r.id})
					_, missing = e.runs.CancelRun(c.ctx, &glv1.CancelRunRequest{RunId: absent})
					if !sameAnswer(hidden, r.id, missing, absent) {
						t.Errorf("CancelRun(%s) = %v; a missing run gets %v", r.id, hidden, missing)
					}
					if r.snapshot != nil {
						checkHiddenBlobs(t, e, c.ctx, r)
					}
				}
			})
		}
		// Each tenant reads its own run's blobs.
		for _, c := range []struct {
			ctx context.Context
			run tenantRun
		}{{ctxA, runA}, {ctxB, runB}, {ctxOp, runA}, {ctxOp, runB}} {
			for _, d := range []*glv1.Digest{c.run.snapshot, c.run.log} {
				if err := readBlob(e, c.ctx, d); err != nil {
					t.Errorf("reading %s of its own run %s: %v", d.GetHash()[:8], c.run.id, err)
				}
			}
		}
	}
	t.Run("live", func(t *testing.T) { check(t, e) })
	if err := e.svc.Close(); err != nil {
		t.Fatal(err)
	}
	t.Run("after a restart on the same files", func(t *testing.T) {
		check(t, newEnvConfig(t, useDir, enginetest.CalcSteps()...))
	})
}

// checkHiddenBlobs: another tenant's snapshot and step log read, stat and
// verify like blobs that are not stored.
func checkHiddenBlobs(t *testing.T, e *env, ctx context.Context, r tenantRun) {
	t.Helper()
	absent := blob.DigestOf([]byte("never uploaded by anyone")).Proto()
	for _, d := range []*glv1.Digest{r.snapshot, r.log} {
		hidden, missing := readBlob(e, ctx, d), readBlob(e, ctx, absent)
		if !sameAnswer(hidden, blobString(d), missing, blobString(absent)) || status.Code(hidden) != codes.NotFound {
			t.Errorf("Read of another tenant's blob = %v; a missing blob gets %v", hidden, missing)
		}
		raw := glv1.NewBlobServiceClient(e.conn)
		st, err := raw.Stat(ctx, &glv1.StatRequest{Digest: d})
		if err != nil || st.GetFound() || st.GetSizeBytes() != 0 {
			t.Errorf("Stat of another tenant's blob = %v, %v; want not found", st, err)
		}
	}
	// Verifying (and so reading) another tenant's snapshot by its digest.
	verify := func(d *glv1.Digest) error {
		stream, err := e.runs.Verify(ctx, &glv1.VerifyRequest{Snapshot: d})
		if err != nil {
			return err
		}
		_, err = stream.Recv()
		return err
	}
	hidden, missing := verify(r.snapshot), verify(absent)
	if !sameAnswer(hidden, blobString(r.snapshot), missing, blobString(absent)) {
		t.Errorf("Verify of another tenant's snapshot = %v; of a missing one %v", hidden, missing)
	}
	_, hidden = e.runs.StartRun(ctx, &glv1.StartRunRequest{Kind: &glv1.StartRunRequest_Fix{Fix: &glv1.FixStart{Snapshot: r.snapshot}}})
	if status.Code(hidden) != codes.InvalidArgument || !strings.Contains(status.Convert(hidden).Message(), "not in the blob store") {
		t.Errorf("StartRun(fix) of another tenant's snapshot = %v", hidden)
	}
	_, hidden = e.runs.DiscoverWorkspace(ctx, &glv1.DiscoverWorkspaceRequest{Snapshot: r.snapshot})
	_, missing = e.runs.DiscoverWorkspace(ctx, &glv1.DiscoverWorkspaceRequest{Snapshot: absent})
	if !sameAnswer(hidden, blobString(r.snapshot), missing, blobString(absent)) {
		t.Errorf("DiscoverWorkspace of another tenant's snapshot = %v; of a missing one %v", hidden, missing)
	}
}

// blobString is how a digest appears in messages.
func blobString(d *glv1.Digest) string {
	bd, _ := blob.DigestFromProto(d)
	return bd.String()
}

// readBlob reads d through BlobService as ctx's caller.
func readBlob(e *env, ctx context.Context, d *glv1.Digest) error {
	stream, err := glv1.NewBlobServiceClient(e.conn).Read(ctx, &glv1.ReadRequest{Digest: d})
	if err != nil {
		return err
	}
	for {
		if _, err := stream.Recv(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// TestAnUploadOpensTheBlobToItsUploader: a tenant that uploads bytes
// another tenant uploaded before may then read them (it has them), and
// only then; a claim with the digest alone opens nothing.
func TestAnUploadOpensTheBlobToItsUploader(t *testing.T) {
	e := newEnv(t, enginetest.CalcSteps()...)
	ctxA, ctxB := as(e.ctx(), "token:aaaaaaaaaaaa", false), as(e.ctx(), "token:bbbbbbbbbbbb", false)
	data := []byte("the same bytes, uploaded twice")
	d, err := e.blobs.Put(ctxA, strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if err := readBlob(e, ctxB, d.Proto()); status.Code(err) != codes.NotFound {
		t.Fatalf("B reads A's upload: %v", err)
	}
	raw := glv1.NewBlobServiceClient(e.conn)
	claim, err := raw.Write(ctxB)
	if err != nil {
		t.Fatal(err)
	}
	if err := claim.Send(&glv1.WriteRequest{Digest: d.Proto(), FinishWrite: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := claim.CloseAndRecv(); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("a claim with the digest alone = %v, want InvalidArgument", err)
	}
	if err := readBlob(e, ctxB, d.Proto()); status.Code(err) != codes.NotFound {
		t.Fatalf("B reads A's upload after an empty claim: %v", err)
	}
	if _, err := e.blobs.Put(ctxB, strings.NewReader(string(data))); err != nil {
		t.Fatal(err)
	}
	if err := readBlob(e, ctxB, d.Proto()); err != nil {
		t.Fatalf("B reads what it uploaded: %v", err)
	}
}
