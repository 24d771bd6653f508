package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/pkg/server/servertest"
)

// stack is gateway → real loop → real discovery + host executor.
type stack struct {
	gw       *servertest.Process
	conn     *grpc.ClientConn
	runs     glv1.RunServiceClient
	httpBase string
}

func startStack(t *testing.T, stepDelay time.Duration, gwArgs ...string) *stack {
	t.Helper()
	dataDir := t.TempDir()
	store, err := blob.NewStore(blobDirOf(dataDir))
	if err != nil {
		t.Fatal(err)
	}
	execAddr := serveHostExecutor(t, store, stepDelay)
	disc := startDiscovery(t, blobDirOf(dataDir))
	loop := startLoop(t, dataDir, disc.Addr, execAddr)
	gw := servertest.Start(t, bin, append([]string{"--loop-addr", loop.Addr, "--http-addr", "127.0.0.1:0"}, gwArgs...)...)
	conn, err := server.Dial(gw.Addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return &stack{gw: gw, conn: conn, runs: glv1.NewRunServiceClient(conn), httpBase: "http://" + httpAddrOf(t, gw)}
}

// upload sends a project's tar through the gateway.
func (s *stack) upload(t *testing.T, ctx context.Context, files map[string]string) blob.Digest {
	t.Helper()
	d, err := blob.NewClient(s.conn).Put(ctx, bytes.NewReader(tarOf(t, files)))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// verify runs a verification through the gateway and returns its events.
func (s *stack) verify(t *testing.T, ctx context.Context, d blob.Digest) []*glv1.RunEvent {
	t.Helper()
	stream, err := s.runs.Verify(ctx, &glv1.VerifyRequest{Snapshot: d.Proto(), SourceDir: "/src/svc"})
	if err != nil {
		t.Fatal(err)
	}
	var evs []*glv1.RunEvent
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return evs
		}
		if err != nil {
			t.Fatalf("Verify stream: %v (after %d events)", err, len(evs))
		}
		evs = append(evs, resp.GetEvent())
	}
}

// page fetches a path of the report site.
func (s *stack) page(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(s.httpBase + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

func TestVerifyThroughTheGatewayAgainstTheRealLoop(t *testing.T) {
	s := startStack(t, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	tests := []struct {
		name    string
		bug     bool
		status  glv1.RunStatus
		verdict string
		page    []string
	}{
		{"passing project", false, glv1.RunStatus_RUN_STATUS_PASSED, "PASS", []string{
			"Execution passed: 4 steps ran in a real sandbox, exit codes 0", "go test -json ./...", "L4"}},
		{"failing project", true, glv1.RunStatus_RUN_STATUS_FAILED, "FAIL", []string{
			// discovery's go-test tees go test -json into a report file
			"Execution failed: step go-test (go test -json ./...) exited with code 1", "calc/calc_test.go:13",
			"Div(1, 0) returned no error &lt;b&gt;want one&lt;/b&gt;"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs := s.verify(t, ctx, s.upload(t, ctx, goProject(tt.bug)))
			last := evs[len(evs)-1]
			if last.GetRunFinished().GetStatus() != tt.status {
				t.Fatalf("last event = %v, want RunFinished %v", last, tt.status)
			}
			runID := last.GetRunId()

			// A late watcher through the gateway replays the same events.
			watch, err := s.runs.WatchRun(ctx, &glv1.WatchRunRequest{RunId: runID})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for {
				resp, err := watch.Recv()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if resp.GetEvent().GetSeq() != evs[n].GetSeq() {
					t.Fatalf("watch event %d has seq %d, Verify had %d", n, resp.GetEvent().GetSeq(), evs[n].GetSeq())
				}
				n++
			}
			if n != len(evs) {
				t.Fatalf("watch replayed %d events, Verify streamed %d", n, len(evs))
			}

			code, body := s.page(t, "/runs/"+runID)
			if code != http.StatusOK {
				t.Fatalf("report = %d\n%s", code, body)
			}
			for _, w := range tt.page {
				if !strings.Contains(body, w) {
					t.Errorf("report lacks %q", w)
				}
			}
			if code, log := s.page(t, "/runs/"+runID+"/logs/go-test"); code != http.StatusOK || !strings.Contains(log, "TestDiv") {
				t.Errorf("go-test log = %d %q", code, log)
			}
			code, raw := s.page(t, "/runs/"+runID+"/result.json")
			var res map[string]any
			if err := json.Unmarshal([]byte(raw), &res); code != http.StatusOK || err != nil || res["status"] != tt.verdict {
				t.Errorf("result.json = %d %v, status %v; want %s", code, err, res["status"], tt.verdict)
			}
			if _, index := s.page(t, "/"); !strings.Contains(index, runID) {
				t.Errorf("front page does not list %s", runID)
			}
		})
	}
}
