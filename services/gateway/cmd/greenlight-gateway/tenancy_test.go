package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/pkg/server/servertest"
)

// Tenant tokens (one per line of --token-file) and the operator token.
const (
	tokenA        = "tenant-a-token-0123456789abcdef"
	tokenB        = "tenant-b-token-0123456789abcdef"
	operatorToken = "operator-token-0123456789abcdef"
)

// tenancyStack is gateway (two tenant tokens and an operator token) →
// real loop (real bbolt) → real discovery + host executor, the loop on a
// fixed address so it can be restarted under the gateway.
type tenancyStack struct {
	dataDir, loopAddr, httpBase string
	discAddr, execAddr          string
	loop                        *servertest.Process
	conn                        *grpc.ClientConn
	runs                        glv1.RunServiceClient
	blobs                       glv1.BlobServiceClient
}

func startTenancyStack(t *testing.T) *tenancyStack {
	t.Helper()
	s := &tenancyStack{dataDir: t.TempDir()}
	store, err := blob.NewStore(blobDirOf(s.dataDir))
	if err != nil {
		t.Fatal(err)
	}
	s.execAddr = serveHostExecutor(t, store, 0)
	s.discAddr = startDiscovery(t, blobDirOf(s.dataDir)).Addr
	s.loop = startLoop(t, s.dataDir, s.discAddr, s.execAddr)
	s.loopAddr = s.loop.Addr
	dir := t.TempDir()
	tokens, operators := filepath.Join(dir, "tokens"), filepath.Join(dir, "operators")
	if err := os.WriteFile(tokens, []byte("# one tenant per line\n"+tokenA+"\n\n"+tokenB+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(operators, []byte(operatorToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	gw := servertest.Start(t, bin, "--loop-addr", s.loopAddr, "--http-addr", "127.0.0.1:0",
		"--token-file", tokens, "--operator-token-file", operators)
	if s.conn, err = server.Dial(gw.Addr); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.conn.Close() })
	s.runs, s.blobs = glv1.NewRunServiceClient(s.conn), glv1.NewBlobServiceClient(s.conn)
	s.httpBase = "http://" + httpAddrOf(t, gw)
	return s
}

// restartLoop stops the loop and starts a new one on the same address and
// files, then waits until the gateway reaches it again.
func (s *tenancyStack) restartLoop(t *testing.T, ctx context.Context) {
	t.Helper()
	if err := s.loop.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code, err := s.loop.Wait(30 * time.Second); err != nil || code != 0 {
		t.Fatalf("loop exit = %d, %v\n%s", code, err, s.loop.Logs())
	}
	loop, _ := siblings(t)
	s.loop = servertest.Start(t, loop, "--addr", s.loopAddr, "--data-dir", s.dataDir, "--discovery-addr", s.discAddr,
		"--executor-addr", s.execAddr, "--prune-every", "0")
	for {
		_, err := s.runs.ListRuns(bearer(ctx, operatorToken), &glv1.ListRunsRequest{})
		if status.Code(err) != codes.Unavailable {
			if err != nil {
				t.Fatalf("ListRuns after the restart: %v", err)
			}
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the gateway did not reach the restarted loop: %v", err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// tenantRun is one finished run and what its owner can reach of it.
type tenantRun struct {
	id       string
	snapshot *glv1.Digest
	log      *glv1.Digest
}

// verifyAs uploads files and verifies them as the token's owner.
func (s *tenancyStack) verifyAs(t *testing.T, ctx context.Context, tok string, files map[string]string) tenantRun {
	t.Helper()
	ctx = bearer(ctx, tok)
	d, err := blob.NewClient(s.conn).Put(ctx, bytes.NewReader(tarOf(t, files)))
	if err != nil {
		t.Fatal(err)
	}
	stream, err := s.runs.Verify(ctx, &glv1.VerifyRequest{Snapshot: d.Proto()})
	if err != nil {
		t.Fatal(err)
	}
	r := tenantRun{snapshot: d.Proto()}
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		r.id = resp.GetEvent().GetRunId()
		if res := resp.GetEvent().GetStepFinished().GetResult(); res.GetName() == "go-test" {
			r.log = res.GetLogDigest()
		}
	}
	if r.id == "" || r.log == nil {
		t.Fatalf("run %q has no go-test log", r.id)
	}
	return r
}

// httpGet fetches path as tok's owner.
func (s *tenancyStack) httpGet(t *testing.T, ctx context.Context, tok, path string) (int, string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.httpBase+path, nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// same reports whether two answers are one, but for the names in them.
func same(a, b error, nameA, nameB string) bool {
	sa, sb := status.Convert(a), status.Convert(b)
	return sa.Code() != codes.OK && sa.Code() == sb.Code() &&
		strings.ReplaceAll(sa.Message(), nameA, "X") == strings.ReplaceAll(sb.Message(), nameB, "X")
}

// TestTokensSeeOnlyTheirOwnRuns (ADVERSARIAL row 49): two tenant tokens
// on one gateway in front of one loop each see only their own runs — list,
// get, watch, cancel, blob read and stat of snapshot and logs, verify of
// the other's snapshot by its digest, the report page, its log download,
// result.json and live events — and another tenant's run answers exactly
// like a run that does not exist; the operator token sees both; all of it
// holds after the loop restarts on the same bbolt file.
func TestTokensSeeOnlyTheirOwnRuns(t *testing.T) {
	s := startTenancyStack(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	runA := s.verifyAs(t, ctx, tokenA, goProject(false))
	runB := s.verifyAs(t, ctx, tokenB, goProject(true))

	check := func(t *testing.T) {
		callers := []struct {
			name  string
			tok   string
			sees  []tenantRun
			hides []tenantRun
		}{
			{"tenant A", tokenA, []tenantRun{runA}, []tenantRun{runB}},
			{"tenant B", tokenB, []tenantRun{runB}, []tenantRun{runA}},
			{"operator", operatorToken, []tenantRun{runB, runA}, nil},
		}
		for _, c := range callers {
			t.Run(c.name, func(t *testing.T) {
				ctx := bearer(ctx, c.tok)
				list, err := s.runs.ListRuns(ctx, &glv1.ListRunsRequest{})
				if err != nil {
					t.Fatal(err)
				}
				var ids, want []string
				for _, r := range list.GetRuns() {
					ids = append(ids, r.GetId())
				}
				for _, r := range c.sees {
					want = append(want, r.id)
				}
				if !slices.Equal(ids, want) {
					t.Errorf("ListRuns = %v, want %v", ids, want)
				}
				_, index := s.httpGet(t, ctx, c.tok, "/")
				for _, r := range c.sees {
					s.checkVisible(t, ctx, c.tok, r)
					if !strings.Contains(index, r.id) {
						t.Errorf("front page does not list %s", r.id)
					}
				}
				for _, r := range c.hides {
					s.checkHidden(t, ctx, c.tok, r)
					if strings.Contains(index, r.id) {
						t.Errorf("front page lists another tenant's run %s", r.id)
					}
				}
			})
		}
	}
	t.Run("live", check)
	s.restartLoop(t, ctx)
	t.Run("after the loop restarted", check)
}

// checkVisible: the caller reaches everything of its run.
func (s *tenancyStack) checkVisible(t *testing.T, ctx context.Context, tok string, r tenantRun) {
	t.Helper()
	if _, err := s.runs.GetRun(ctx, &glv1.GetRunRequest{RunId: r.id}); err != nil {
		t.Errorf("GetRun(%s): %v", r.id, err)
	}
	if err := watchAll(ctx, s.runs, r.id); err != nil {
		t.Errorf("WatchRun(%s): %v", r.id, err)
	}
	for _, d := range []*glv1.Digest{r.snapshot, r.log} {
		if err := readAll(ctx, s.blobs, d); err != nil {
			t.Errorf("Read of its own run's blob %s: %v", d.GetHash()[:8], err)
		}
	}
	for _, path := range []string{"/runs/" + r.id, "/runs/" + r.id + "/result.json", "/runs/" + r.id + "/logs/go-test/raw"} {
		if code, body := s.httpGet(t, ctx, tok, path); code != http.StatusOK {
			t.Errorf("GET %s = %d %.200s", path, code, body)
		}
	}
	if _, err := s.runs.CancelRun(ctx, &glv1.CancelRunRequest{RunId: r.id}); err != nil {
		t.Errorf("CancelRun of its own finished run: %v", err)
	}
}

// checkHidden: another tenant's run, its events and blobs answer exactly
// like ones that do not exist, over gRPC and HTTP.
func (s *tenancyStack) checkHidden(t *testing.T, ctx context.Context, tok string, r tenantRun) {
	t.Helper()
	const absent = "20991231T000000-000000000000"
	_, hidden := s.runs.GetRun(ctx, &glv1.GetRunRequest{RunId: r.id})
	_, missing := s.runs.GetRun(ctx, &glv1.GetRunRequest{RunId: absent})
	if !same(hidden, missing, r.id, absent) || status.Code(hidden) != codes.NotFound {
		t.Errorf("GetRun of another tenant's run = %v; of a missing one %v", hidden, missing)
	}
	hidden, missing = watchAll(ctx, s.runs, r.id), watchAll(ctx, s.runs, absent)
	if !same(hidden, missing, r.id, absent) || status.Code(hidden) != codes.NotFound {
		t.Errorf("WatchRun of another tenant's run = %v; of a missing one %v", hidden, missing)
	}
	_, hidden = s.runs.CancelRun(ctx, &glv1.CancelRunRequest{RunId: r.id})
	_, missing = s.runs.CancelRun(ctx, &glv1.CancelRunRequest{RunId: absent})
	if !same(hidden, missing, r.id, absent) || status.Code(hidden) != codes.NotFound {
		t.Errorf("CancelRun of another tenant's run = %v; of a missing one %v", hidden, missing)
	}
	none := blob.DigestOf([]byte("uploaded by nobody")).Proto()
	for _, d := range []*glv1.Digest{r.snapshot, r.log} {
		hidden, missing := readAll(ctx, s.blobs, d), readAll(ctx, s.blobs, none)
		if !same(hidden, missing, digestString(d), digestString(none)) || status.Code(hidden) != codes.NotFound {
			t.Errorf("Read of another tenant's blob = %v; of a missing one %v", hidden, missing)
		}
		if st, err := s.blobs.Stat(ctx, &glv1.StatRequest{Digest: d}); err != nil || st.GetFound() {
			t.Errorf("Stat of another tenant's blob = %v, %v; want not found", st, err)
		}
	}
	verify := func(d *glv1.Digest) error {
		stream, err := s.runs.Verify(ctx, &glv1.VerifyRequest{Snapshot: d})
		if err != nil {
			return err
		}
		_, err = stream.Recv()
		return err
	}
	hidden, missing = verify(r.snapshot), verify(none)
	if !same(hidden, missing, digestString(r.snapshot), digestString(none)) {
		t.Errorf("Verify of another tenant's snapshot = %v; of a missing one %v", hidden, missing)
	}
	for _, suffix := range []string{"", "/result.json", "/logs/go-test/raw", "/logs/go-test", "/events"} {
		code, body := s.httpGet(t, ctx, tok, "/runs/"+r.id+suffix)
		mcode, mbody := s.httpGet(t, ctx, tok, "/runs/"+absent+suffix)
		if code != http.StatusNotFound || code != mcode || strings.ReplaceAll(body, r.id, "X") != strings.ReplaceAll(mbody, absent, "X") {
			t.Errorf("GET /runs/<other's run>%s = %d, a missing run's = %d\n%.300s\n%.300s", suffix, code, mcode, body, mbody)
		}
	}
}

// digestString is how a digest appears in messages.
func digestString(p *glv1.Digest) string {
	d, _ := blob.DigestFromProto(p)
	return d.String()
}

// watchAll follows a run to its end.
func watchAll(ctx context.Context, runs glv1.RunServiceClient, id string) error {
	stream, err := runs.WatchRun(ctx, &glv1.WatchRunRequest{RunId: id})
	if err != nil {
		return err
	}
	for {
		if _, err := stream.Recv(); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// readAll reads a blob to its end.
func readAll(ctx context.Context, blobs glv1.BlobServiceClient, d *glv1.Digest) error {
	stream, err := blobs.Read(ctx, &glv1.ReadRequest{Digest: d})
	if err != nil {
		return err
	}
	for {
		if _, err := stream.Recv(); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
	}
}
