package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/loopfake"
)

func TestReportPages(t *testing.T) {
	s := startSite(t)
	tests := []struct {
		name    string
		path    string
		code    int
		want    []string
		notWant []string
	}{
		{"pass", "/runs/run-pass", 200, []string{
			`class="banner pass"`, "Execution passed: 4 steps ran in a real sandbox, exit codes 0",
			`<span class="d-add">&#43;	if b == 0 {</span>`, `<span class="d-del">-	return a / b, nil</span>`,
			"Patch attempt 2", "applied", "rolled back", "patch deletes test assertions",
			`<span class="badge cache">cache hit</span>`, "<code>go test -json ./...</code>",
			`href="/runs/run-pass/logs/go-test"`, "12 passed", "L4", "real test assertions", "10</strong> / 10", "<th>Rule</th><td>every required step passed; 12 test assertions ran</td>",
			`href="/runs/run-pass/result.json"`,
			"Against the baseline: resolution FULL; tests 1 fail→pass, 11 pass→pass", `<span class="badge ok">FAIL_TO_PASS</span> <span class="muted">target</span>`,
			"<code>example.com/svc/calc.TestDiv</code>", `<td data-label="Baseline">failed</td><td data-label="Now">passed</td>`,
		}, []string{`id="live"`}},
		{"fail", "/runs/run-fail", 200, []string{
			`class="banner fail"`, "Execution failed: step go-test (go test -json ./...) exited with code 1",
			"2 of 13 tests failed.", `<code class="loc">calc/calc_test.go:27</code>`, `<code class="loc">util/util_test.go:14</code>`,
			"&lt;script&gt;window.pwned=1&lt;/script&gt;", "No patches: this run verified the submitted snapshot",
			`<td data-label="Exit code" class="num exit">1</td>`,
		}, []string{"<script>window.pwned", "<img src=x", "Execution passed"}},
		{"index", "/", 200, []string{`href="/runs/run-pass"`, `href="/runs/run-fail"`, "PASSED", "FAILED"}, nil},
		{"unknown run", "/runs/nope", 404, []string{"Run not found", "nope"}, nil},
		{"summary fragment", "/runs/run-pass/summary", 200, []string{`<div id="summary">`, "Execution passed"}, []string{"<html"}},
		{"no such page", "/elsewhere", 404, []string{"Page not found"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, hdr, body := s.get(t, tt.path)
			if code != tt.code {
				t.Fatalf("status %d, want %d\n%s", code, tt.code, body)
			}
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(body, w) {
					t.Errorf("page contains %q", w)
				}
			}
			if csp := hdr.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
				t.Errorf("CSP = %q", csp)
			}
		})
	}
}

func TestLiveRunPageIsWiredForEvents(t *testing.T) {
	s := startSite(t)
	s.loop.Emit("run-live", loopfake.Created("run-live"))
	_, _, body := s.get(t, "/runs/run-live")
	for _, w := range []string{`class="banner running"`, `id="live"`, `data-events="/runs/run-live/events"`, `data-summary="/runs/run-live/summary"`} {
		if !strings.Contains(body, w) {
			t.Errorf("live page lacks %q", w)
		}
	}
	if strings.Contains(body, "result.json") {
		t.Error("a running run links a result that does not exist yet")
	}
}

func TestRawLogStreamsTheStoredBlob(t *testing.T) {
	s := startSite(t)
	code, hdr, body := s.get(t, "/runs/run-fail/logs/go-test/raw")
	if code != 200 || body != loopfake.FailingTestLog {
		t.Fatalf("log = %d %q", code, body)
	}
	if ct := hdr.Get("Content-Type"); ct != "text/plain; charset=utf-8" || hdr.Get("Content-Security-Policy") != "sandbox" ||
		hdr.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("log headers = %v", hdr)
	}
	if code, _, _ := s.get(t, "/runs/run-fail/logs/no-such-step/raw"); code != 404 {
		t.Fatalf("unknown step = %d, want 404", code)
	}
}

func TestResultJSON(t *testing.T) {
	s := startSite(t)
	code, hdr, body := s.get(t, "/runs/run-fail/result.json")
	if code != 200 || hdr.Get("Content-Type") != "application/json" {
		t.Fatalf("result = %d %v", code, hdr)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	if got["status"] != "FAIL" || got["run_id"] != "run-fail" || got["tail_log"] == nil || got["artifact_paths"] == nil {
		t.Fatalf("result.json = %v", got)
	}
	failures, _ := got["failures"].([]any)
	if len(failures) != 2 || failures[0].(map[string]any)["file"] != "calc/calc_test.go" {
		t.Fatalf("failures = %v", got["failures"])
	}
	s.loop.Emit("run-live", loopfake.Created("run-live"))
	if code, _, _ := s.get(t, "/runs/run-live/result.json"); code != http.StatusConflict {
		t.Fatalf("result of a running run = %d, want 409", code)
	}
}

func TestPagesAreReadOnly(t *testing.T) {
	s := startSite(t)
	resp, err := http.Post(s.srv.URL+"/runs/run-pass", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST = %d, want 405", resp.StatusCode)
	}
}

func TestRunFinishedSwitchesTheSummary(t *testing.T) {
	s := startSite(t)
	s.loop.Emit("run-live", loopfake.Created("run-live"))
	_, _, before := s.get(t, "/runs/run-live/summary")
	s.loop.Emit("run-live", loopfake.Finished(glv1.RunStatus_RUN_STATUS_FAILED, loopfake.FailingVerifyRun("run-live", nil).GetResult()))
	_, _, after := s.get(t, "/runs/run-live/summary")
	if !strings.Contains(before, "banner running") || !strings.Contains(after, "banner fail") {
		t.Fatalf("summary did not switch:\nbefore %q\nafter %q", before[:200], after[:200])
	}
}

func TestErrorReportShowsNoScore(t *testing.T) {
	s := startSite(t)
	s.loop.Put(&glv1.Run{Id: "run-error", Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: glv1.RunStatus_RUN_STATUS_ERROR,
		Result: &glv1.Result{Status: glv1.Verdict_VERDICT_ERROR, RunId: "run-error", Summary: "ERROR: no step ran",
			Score: &glv1.Score{Total: 5, Rule: "default: no step ran and no model score: 5.0, needs human review"}}})
	code, _, body := s.get(t, "/runs/run-error")
	if code != 200 {
		t.Fatalf("status %d\n%s", code, body)
	}
	for _, w := range []string{"<dt>Score</dt>", "<h2>Score</h2>", "needs human review"} {
		if strings.Contains(body, w) {
			t.Errorf("the report of an ERROR shows a score (%q)", w)
		}
	}
}

func TestIncompleteCountsShowOnTheReport(t *testing.T) {
	s := startSite(t)
	why := "the test log was cut at the per-step cap and no machine-readable report was collected"
	s.loop.Put(&glv1.Run{Id: "run-cut", Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: glv1.RunStatus_RUN_STATUS_ERROR,
		Result: &glv1.Result{Status: glv1.Verdict_VERDICT_ERROR, RunId: "run-cut", Summary: "ERROR: test counts incomplete, cannot pass: go-test (" + why + ")",
			Steps: []*glv1.StepResult{{Name: "go-test", Phase: glv1.Phase_PHASE_TEST, Status: glv1.StepStatus_STEP_STATUS_OK, Truncated: true,
				Counts: &glv1.TestCounts{Passed: 44, Total: 44, Incomplete: true, IncompleteReason: why}}}}})
	code, _, body := s.get(t, "/runs/run-cut")
	if code != 200 {
		t.Fatalf("status %d\n%s", code, body)
	}
	if want := "44 passed, 0 failed, INCOMPLETE: " + why; !strings.Contains(body, want) {
		t.Errorf("the step row lacks %q", want)
	}
}
