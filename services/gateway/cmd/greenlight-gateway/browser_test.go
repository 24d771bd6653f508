package main

import (
	"context"
	"strings"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	bt "github.com/greenlight-dev/greenlight/services/gateway/internal/browsertest"
)

// TestBrowserFollowsARealRun opens the report page of a run of the real
// loop while it is going and watches it fail, in headless Chromium
// (apt-get install -y chromium; GREENLIGHT_INTEGRATION=1).
func TestBrowserFollowsARealRun(t *testing.T) {
	ctx := bt.New(t, 2*time.Minute)
	s := startStack(t, 700*time.Millisecond)
	rpcCtx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	d := s.upload(t, rpcCtx, goProject(true))
	stream, err := s.runs.Verify(rpcCtx, &glv1.VerifyRequest{Snapshot: d.Proto(), SourceDir: "/src/svc"})
	if err != nil {
		t.Fatal(err)
	}
	first, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	go func() { // keep the owning stream open until the run ends
		for {
			if _, err := stream.Recv(); err != nil {
				return
			}
		}
	}()

	bt.Navigate(t, ctx, s.httpBase+"/runs/"+first.GetEvent().GetRunId())
	bt.Eval[bool](t, ctx, `window.sameDocument = true`)
	bt.WaitFor(t, ctx, `document.querySelectorAll('#live .live-steps tbody tr').length >= 1`, "a live step row", 30*time.Second)
	bt.Screenshot(t, ctx, "real-run-live.png")
	bt.WaitFor(t, ctx, `document.querySelector('#banner').classList.contains('fail')`, "the failure banner", 90*time.Second)

	want := "Execution failed: step go-test (go test -json ./...) exited with code 1"
	if got := bt.Eval[string](t, ctx, `document.querySelector('#banner .verdict').innerText`); got != want {
		t.Errorf("banner = %q, want %q", got, want)
	}
	if !bt.Eval[bool](t, ctx, `window.sameDocument === true`) {
		t.Error("the page reloaded instead of updating in place")
	}
	locs := bt.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#failures code.loc')).map(e => e.innerText)`)
	if len(locs) == 0 || locs[0] != "calc/calc_test.go:13" {
		t.Errorf("failure locations = %q, want calc/calc_test.go:13 first", locs)
	}
	if got := bt.Eval[int](t, ctx, `document.querySelectorAll('#live .live-steps tbody tr').length`); got != 4 {
		t.Errorf("live step rows = %d, want 4 (secret scan, build, vet, test; gosec is tier 1)", got)
	}
	if log := bt.Eval[string](t, ctx, `document.getElementById('live-log').textContent`); !strings.Contains(log, "TestDiv") {
		t.Errorf("live output lacks the test's output: %q", log)
	}
	bt.Screenshot(t, ctx, "real-run-finished.png")
}
