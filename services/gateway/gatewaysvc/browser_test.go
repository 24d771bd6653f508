package gatewaysvc

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/server"
	bt "github.com/greenlight-dev/greenlight/services/gateway/internal/browsertest"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/loopfake"
)

// The browser tests load the report pages in headless Chromium, through a
// gateway that requires a token (a browser logs in with ?token= once), and
// assert what a person sees. Screenshots land in $GREENLIGHT_ARTIFACTS or
// testdata/out/. Setup: apt-get install -y chromium; GREENLIGHT_INTEGRATION=1.

// browserGateway starts a token-protected gateway with the canned runs and
// their logs, and a browser logged in to it.
func browserGateway(t *testing.T) (*gateway, context.Context) {
	t.Helper()
	ctx := bt.New(t, 90*time.Second)
	g := startGateway(t, func(c *Config, _ *server.Config) { c.Token = testToken })
	passLogs := storeLogs(t, g, loopfake.Logs())
	failTexts := loopfake.Logs()
	failTexts["go-test"] = loopfake.FailingTestLog
	g.loop.Put(loopfake.PassingFixRun("run-pass", passLogs))
	g.loop.Put(loopfake.FailingVerifyRun("run-fail", storeLogs(t, g, failTexts)))

	// Without the token the browser gets a 401 page that asks for it, and
	// nothing of the run; its form sends the token once as ?token=.
	bt.Navigate(t, ctx, g.httpURL+"/runs/run-pass")
	if body := bt.Eval[string](t, ctx, `document.body.innerText`); !strings.Contains(body, "token needed") || strings.Contains(body, "run-pass") {
		t.Fatalf("page without a token shows %q, want the token form only", body)
	}
	if action := bt.Eval[string](t, ctx, `document.querySelector('form input[name=token]') ? document.querySelector('form').getAttribute('action') : ''`); action != "/runs/run-pass" {
		t.Fatalf("the 401 page's token form sends to %q, want /runs/run-pass", action)
	}
	bt.Navigate(t, ctx, g.httpURL+"/?token="+testToken)
	if loc := bt.Eval[string](t, ctx, `location.href`); loc != g.httpURL+"/" {
		t.Fatalf("after login the address is %q: the token should be gone from it", loc)
	}
	if cookies := bt.Eval[string](t, ctx, `document.cookie`); cookies != "" {
		t.Fatalf("script can read cookies %q: the session cookie must be HttpOnly", cookies)
	}
	return g, ctx
}

// storeLogs puts step logs into the loop's blob store.
func storeLogs(t *testing.T, g *gateway, texts map[string]string) map[string]*glv1.Digest {
	t.Helper()
	logs := map[string]*glv1.Digest{}
	for name, text := range texts {
		d, err := g.loop.Blobs.Put(context.Background(), strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		logs[name] = d.Proto()
	}
	return logs
}

// rows returns the visible text of a table's body cells.
func rows(t *testing.T, ctx context.Context, selector string) [][]string {
	t.Helper()
	return bt.Eval[[][]string](t, ctx, `Array.from(document.querySelectorAll(`+jsString(selector+" tbody tr")+`)).map(
		tr => Array.from(tr.cells).map(td => td.innerText.trim()))`)
}

func jsString(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }

func TestBrowserFinishedRuns(t *testing.T) {
	g, ctx := browserGateway(t)

	t.Run("index", func(t *testing.T) {
		got := rows(t, ctx, "table.runs")
		if len(got) != 2 || got[0][0] != "run-fail" || got[1][0] != "run-pass" {
			t.Fatalf("run list = %v", got)
		}
	})

	t.Run("passing repair run", func(t *testing.T) {
		bt.Navigate(t, ctx, g.httpURL+"/runs/run-pass")
		if got := bt.Eval[string](t, ctx, `document.querySelector('#banner .verdict').innerText`); got != "Execution passed: 4 steps ran in a real sandbox, exit codes 0" {
			t.Errorf("banner = %q", got)
		}
		if got := bt.Eval[string](t, ctx, `getComputedStyle(document.getElementById('banner')).backgroundColor`); got != "rgb(218, 251, 225)" {
			t.Errorf("pass banner background = %s, want green", got)
		}
		steps := rows(t, ctx, "#steps")
		if len(steps) != 4 {
			t.Fatalf("step rows = %v", steps)
		}
		wantTest := []string{"4", "go-test\ntest · L4", "go test -json ./...", "0", "4.20s", "OK", "—", "12 passed, 0 failed", "full log"}
		if strings.Join(steps[3], "|") != strings.Join(wantTest, "|") {
			t.Errorf("go-test row = %q\nwant           %q", steps[3], wantTest)
		}
		if steps[0][6] != "cache hit" {
			t.Errorf("install row cache cell = %q, want cache hit", steps[0][6])
		}
		adds := bt.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll('details[open] pre.diff .d-add')).map(e => e.textContent)`)
		if len(adds) != 6 || adds[2] != "+\tif b == 0 {" {
			t.Errorf("added lines of the applied patch = %q", adds)
		}
		dels := bt.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll('details[open] pre.diff .d-del')).map(e => e.textContent)`)
		if len(dels) != 1 || dels[0] != "-\treturn a / b, nil" {
			t.Errorf("removed lines = %q", dels)
		}
		if got := bt.Eval[string](t, ctx, `getComputedStyle(document.querySelector('pre.diff .d-add')).backgroundColor`); got != "rgb(230, 255, 236)" {
			t.Errorf("added line background = %s, want green", got)
		}
		summaries := bt.Eval[[]string](t, ctx, `Array.from(document.querySelectorAll('details.patch > summary')).map(e => e.innerText)`)
		if len(summaries) != 2 || !strings.Contains(summaries[0], "rolled back") || !strings.Contains(summaries[1], "applied") {
			t.Errorf("patch summaries = %q", summaries)
		}
		bt.Screenshot(t, ctx, "report-pass.png")

		bt.Navigate(t, ctx, g.httpURL+"/runs/run-pass/logs/go-test")
		if got := bt.Eval[string](t, ctx, `document.getElementById('log').innerText`); strings.TrimSpace(got) != strings.TrimSpace(loopfake.Logs()["go-test"]) {
			t.Errorf("log page = %q", got)
		}
		bt.Navigate(t, ctx, g.httpURL+"/runs/run-pass/logs/go-test/raw")
		if got := bt.Eval[string](t, ctx, `document.body.innerText`); strings.TrimSpace(got) != strings.TrimSpace(loopfake.Logs()["go-test"]) {
			t.Errorf("raw log = %q", got)
		}
	})

	t.Run("failing verification", func(t *testing.T) {
		bt.Navigate(t, ctx, g.httpURL+"/runs/run-fail")
		if got := bt.Eval[string](t, ctx, `document.querySelector('#banner .verdict').innerText`); got != "Execution failed: step go-test (go test -json ./...) exited with code 1" {
			t.Errorf("banner = %q", got)
		}
		failures := rows(t, ctx, "#failures")
		if len(failures) != 2 || failures[0][0] != "calc/calc_test.go:27" || failures[1][0] != "util/util_test.go:14" {
			t.Fatalf("failure rows = %q", failures)
		}
		if !strings.Contains(failures[0][3], loopfake.HostileMessage) {
			t.Errorf("hostile message not shown verbatim: %q", failures[0][3])
		}
		if got := bt.Eval[string](t, ctx, `String(window.pwned)`); got != "undefined" {
			t.Errorf("markup from a failure message ran: window.pwned = %s", got)
		}
		if got := bt.Eval[string](t, ctx, `document.getElementById('counts').innerText`); !strings.HasPrefix(got, "10 passed · 2 failed · 1 skipped · 13 total") {
			t.Errorf("counts = %q", got)
		}
		if got := bt.Eval[string](t, ctx, `document.querySelector('#steps tr.bad td.exit').innerText`); got != "1" {
			t.Errorf("failing exit code cell = %q", got)
		}
		bt.Screenshot(t, ctx, "report-fail.png")
	})
}

func TestBrowserLiveRun(t *testing.T) {
	g, ctx := browserGateway(t)
	steps := loopfake.GoSteps()
	g.loop.Put(&glv1.Run{Id: "run-live", Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: glv1.RunStatus_RUN_STATUS_RUNNING,
		Snapshot: &glv1.Digest{Hash: strings.Repeat("ab", 32), SizeBytes: 4096}, SourceDir: "/home/dev/svc", CreatedAt: timestamppb.Now()})
	g.loop.Emit("run-live", loopfake.Created("run-live"), loopfake.StepStartedEvent(0, steps[0]))

	bt.Navigate(t, ctx, g.httpURL+"/runs/run-live")
	if got := bt.Eval[string](t, ctx, `document.querySelector('#banner .verdict').innerText`); got != "Verification in progress: no verdict yet" {
		t.Fatalf("banner of a running run = %q", got)
	}
	// Marks this document: a reload would lose it.
	bt.Eval[bool](t, ctx, `window.sameDocument = true`)
	bt.WaitFor(t, ctx, `document.querySelectorAll('#live .live-steps tbody tr').length === 1`, "the first step row", 10*time.Second)

	run := loopfake.PassingFixRun("run-live", nil)
	results := run.GetResult().GetSteps()
	g.loop.Emit("run-live",
		loopfake.LogEvent(0, "go-mod-download", "dependency cache hit\n"),
		loopfake.StepFinishedEvent(0, results[0]),
		loopfake.StepStartedEvent(1, steps[1]),
		loopfake.LogEvent(1, "go-build", "compiling example.com/svc/calc <b>not bold</b>\n"))
	bt.WaitFor(t, ctx, `document.querySelectorAll('#live .live-steps tbody tr').length === 2`, "a second step row", 10*time.Second)
	bt.WaitFor(t, ctx, `document.getElementById('live-log').textContent.includes('compiling example.com/svc/calc <b>not bold</b>')`,
		"the new log line, as text", 10*time.Second)
	live := rows(t, ctx, "#live table.live-steps")
	if len(live) != 2 || live[0][1] != "go-mod-download" || live[0][5] != "OK" || live[0][6] != "cache hit" || live[1][5] != "RUNNING" {
		t.Errorf("live step rows = %q", live)
	}
	if n := bt.Eval[int](t, ctx, `document.querySelectorAll('#live-log b').length`); n != 0 {
		t.Errorf("log markup was rendered as HTML (%d <b> elements)", n)
	}
	bt.Screenshot(t, ctx, "report-live-running.png")

	var rest []*glv1.RunEvent
	for i := 1; i < len(steps); i++ {
		if i > 1 {
			rest = append(rest, loopfake.StepStartedEvent(i, steps[i]))
		}
		rest = append(rest, loopfake.StepFinishedEvent(i, results[i]))
	}
	rest = append(rest, loopfake.Finished(glv1.RunStatus_RUN_STATUS_PASSED, run.GetResult()))
	g.loop.Emit("run-live", rest...)

	bt.WaitFor(t, ctx, `document.querySelector('#banner').classList.contains('pass')`, "the banner to switch to pass", 10*time.Second)
	if got := bt.Eval[string](t, ctx, `document.querySelector('#banner .verdict').innerText`); got != "Execution passed: 4 steps ran in a real sandbox, exit codes 0" {
		t.Errorf("banner after RunFinished = %q", got)
	}
	if !bt.Eval[bool](t, ctx, `window.sameDocument === true`) {
		t.Error("the page reloaded; the summary should update in place")
	}
	if got := len(rows(t, ctx, "#steps")); got != 4 {
		t.Errorf("final step table has %d rows, want 4", got)
	}
	if got := bt.Eval[int](t, ctx, visibleStepTables); got != 1 {
		t.Errorf("%d step tables are visible after the run finished, want 1 (the final one)", got)
	}
	if got := bt.Eval[string](t, ctx, `document.getElementById('live-state').innerText`); got != "PASSED" {
		t.Errorf("live state badge = %q", got)
	}
	if got := g.loop.WatchCalls(); got != 1 {
		t.Errorf("upstream WatchRun calls = %d, want 1", got)
	}
	bt.Screenshot(t, ctx, "report-live-finished.png")
}
