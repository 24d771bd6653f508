package web

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/loopfake"
)

// between is the text of body from the element with id start to the one
// with id end (or the end).
func between(t *testing.T, body, start, end string) string {
	t.Helper()
	i := strings.Index(body, `id="`+start+`"`)
	if i < 0 {
		t.Fatalf("page has no #%s", start)
	}
	rest := body[i:]
	if j := strings.Index(rest, `id="`+end+`"`); end != "" && j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// checkSection fetches run id's page and checks its section #section:
// every want is in it, no notWant is, and the banner above it is still a
// failure's (what a section adds never changes the verdict shown).
func checkSection(t *testing.T, s *site, id, section string, want, notWant []string) {
	t.Helper()
	_, _, body := s.get(t, "/runs/"+id)
	if !strings.Contains(between(t, body, "banner", strings.TrimSuffix(section, "-h")), `class="banner fail"`) {
		t.Errorf("the banner of a FAIL with a %s section is not a failure", section)
	}
	sec := between(t, body, section, "")
	for _, w := range want {
		if !strings.Contains(sec, w) {
			t.Errorf("#%s lacks %q:\n%s", section, w, sec)
		}
	}
	for _, w := range notWant {
		if strings.Contains(sec, w) {
			t.Errorf("#%s has %q", section, w)
		}
	}
}

func TestFixRunReportShowsBaselineAndRounds(t *testing.T) {
	s := startSite(t)
	f := s.loop.PutFixRounds(t, "fix-2")
	code, _, body := s.get(t, "/runs/fix-2")
	if code != http.StatusOK {
		t.Fatalf("report = %d\n%s", code, body)
	}
	baseline := between(t, body, "round-0", "round-1")
	divLink := fmt.Sprintf(`href="/runs/fix-2/code/calc/calc_test.go?snapshot=%s#L%d"`, f.Snapshots[0].GetHash(), f.DivLine)
	for _, want := range []string{
		">Baseline</h3>", `<span class="badge bad">FAIL</span>`, "10 passed · 2 failed", divLink,
		fmt.Sprintf("calc/calc_test.go:%d", f.DivLine), loopfake.DivTestID, loopfake.TrimTestID,
		`href="/runs/fix-2/logs/go-test?attempt=0"`,
	} {
		if !strings.Contains(baseline, want) {
			t.Errorf("baseline column lacks %q", want)
		}
	}
	round1 := between(t, body, "round-1", "round-2")
	for _, want := range []string{
		">Round 1</h3>", `<a href="#patch-1"><span class="badge ok">applied</span></a>`, "11 passed · 1 failed",
		"resolution PARTIAL; tests 1 fail→pass, 10 pass→pass, 1 fail→fail",
		`<span class="badge ok">FAIL_TO_PASS</span> <span class="muted">target</span> <code>` + loopfake.DivTestID + `</code> <span class="muted">failed → passed</span>`,
		`<span class="badge warn">FAIL_TO_FAIL</span>`,
		fmt.Sprintf(`href="/runs/fix-2/code/util/util_test.go?snapshot=%s#L%d"`, f.Snapshots[1].GetHash(), f.TrimLine),
	} {
		if !strings.Contains(round1, want) {
			t.Errorf("round 1 column lacks %q", want)
		}
	}
	round2 := between(t, body, "round-2", "final")
	for _, want := range []string{">Round 2</h3>", `<span class="badge ok">PASS</span>`, "12 passed · 0 failed", "resolution FULL; tests 2 fail→pass"} {
		if !strings.Contains(round2, want) {
			t.Errorf("round 2 column lacks %q", want)
		}
	}
	final := between(t, body, "final", "patch-1")
	for _, want := range []string{">Final state</h3>", `<span class="badge ok">PASSED</span>`, "Green after 2 rounds."} {
		if !strings.Contains(final, want) {
			t.Errorf("final column lacks %q", want)
		}
	}
	if !strings.Contains(body, "Final verification: steps") || !strings.Contains(body, `id="patch-2"`) {
		t.Error("the final steps or the patch anchors are missing")
	}
	// The rounds come from the event log once: the second view is cached.
	calls := s.loop.WatchCalls()
	s.get(t, "/runs/fix-2")
	if got := s.loop.WatchCalls(); got != calls {
		t.Errorf("a second view replayed the events again (%d → %d WatchRun calls)", calls, got)
	}
}

func TestFixRunWithoutEventsShowsNoRounds(t *testing.T) {
	s := startSite(t)
	_, _, body := s.get(t, "/runs/run-pass")
	if strings.Contains(body, `id="round-0"`) || strings.Contains(body, "not verified") {
		t.Error("a fix run without an event log shows made-up rounds")
	}
}

func TestLogPageRendersGoTestJSONAsNumberedText(t *testing.T) {
	s := startSite(t)
	f := s.loop.PutFixRounds(t, "fix-2")
	code, hdr, body := s.get(t, "/runs/fix-2/logs/go-test?attempt=0")
	if code != http.StatusOK || !strings.HasPrefix(hdr.Get("Content-Type"), "text/html") {
		t.Fatalf("log page = %d %s", code, hdr.Get("Content-Type"))
	}
	for _, want := range []string{
		`<span class="line" id="L1"><a class="ln" href="#L1" data-n="1" aria-label="Line 1"></a>=== RUN   TestAdd`,
		fmt.Sprintf("    calc_test.go:%d: Div(1, 0) = 0, &lt;nil&gt;; want an error", f.DivLine),
		"--- FAIL: TestDiv (0.00s)", "FAIL\texample.com/svc/calc\t0.011s", `id="log-filter"`, "tag\">baseline</span>",
		`href="/runs/fix-2/logs/go-test/raw?attempt=0"`, "Shown as the text <code>go test</code> prints",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("log page lacks %q", want)
		}
	}
	if strings.Contains(body, "&#34;Action&#34;") || strings.Contains(body, `"Action"`) {
		t.Error("the log page shows raw test2json events")
	}
	_, _, final := s.get(t, "/runs/fix-2/logs/go-test")
	if strings.Contains(final, "--- FAIL") || !strings.Contains(final, "--- PASS: TestDiv") {
		t.Error("the log without ?attempt is not the final verification's")
	}
	_, _, raw := s.get(t, "/runs/fix-2/logs/go-test/raw?attempt=0")
	if !strings.Contains(raw, `"Action":"fail"`) {
		t.Error("the raw log is not the stored bytes")
	}
	for path, code := range map[string]int{
		"/runs/fix-2/logs/go-test?attempt=7": http.StatusNotFound, "/runs/fix-2/logs/go-test?attempt=x": http.StatusBadRequest,
	} {
		if got, _, _ := s.get(t, path); got != code {
			t.Errorf("%s = %d, want %d", path, got, code)
		}
	}
}

func TestLogLinesKeepTheEndOfAHugeLog(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= maxLogLines+10; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	b.WriteString(strings.Repeat("x", 3*maxLogLineBytes)) // one huge unterminated line
	l, err := readLogLines(strings.NewReader(b.String()), false)
	if err != nil {
		t.Fatal(err)
	}
	lines := l.lines()
	if len(lines) != maxLogLines || l.skipped != 11 || lines[0].N != 12 || lines[0].Text != "line 12" {
		t.Fatalf("kept %d lines from #%d (%q), skipped %d", len(lines), lines[0].N, lines[0].Text, l.skipped)
	}
	last := lines[len(lines)-1]
	if last.N != maxLogLines+11 || len(last.Text) > maxLogLineBytes+100 || !strings.Contains(last.Text, "line cut for display") {
		t.Fatalf("last line #%d has %d bytes", last.N, len(last.Text))
	}
}

func TestStopMemoIsRenderedMarkdown(t *testing.T) {
	s := startSite(t)
	memo := "# Stop memo: run run-memo\n\n**Stopped:** the round limit.\n\n- failure in `calc_test.go`: <script>window.pwned=1</script>\n\n[docs](javascript:alert(1))\n"
	s.loop.Put(&glv1.Run{Id: "run-memo", Kind: glv1.RunKind_RUN_KIND_FIX, Status: glv1.RunStatus_RUN_STATUS_FAILED,
		Result: &glv1.Result{Status: glv1.Verdict_VERDICT_FAIL, StopMemo: memo}})
	_, _, body := s.get(t, "/runs/run-memo")
	memoHTML := between(t, body, "memo-h", "")
	for _, want := range []string{"<h3>Stop memo: run run-memo</h3>", "<strong>Stopped:</strong>", "<code>calc_test.go</code>"} {
		if !strings.Contains(memoHTML, want) {
			t.Errorf("memo lacks %q:\n%s", want, memoHTML)
		}
	}
	for _, bad := range []string{"<script", "javascript:", "**Stopped"} {
		if strings.Contains(memoHTML, bad) {
			t.Errorf("memo contains %q:\n%s", bad, memoHTML)
		}
	}
}

func TestRunsListFilter(t *testing.T) {
	s := startSite(t)
	s.loop.PutFixRounds(t, "fix-2")
	tests := []struct {
		query     string
		want, not []string
	}{
		{"", []string{"run-pass", "run-fail", "fix-2", `aria-current="page" class="current">All`}, nil},
		{"?status=failed", []string{`href="/runs/run-fail"`, `aria-current="page" class="current">Failed`, `data-poll="/fragments/runs?status=failed"`},
			[]string{`href="/runs/run-pass"`, `href="/runs/fix-2"`}},
		{"?status=passed", []string{`href="/runs/run-pass"`, `href="/runs/fix-2"`}, []string{`href="/runs/run-fail"`}},
		{"?status=running", []string{"No Running runs."}, []string{`href="/runs/run-`}},
	}
	for _, tt := range tests {
		code, _, body := s.get(t, "/"+tt.query)
		if code != http.StatusOK {
			t.Fatalf("%s = %d", tt.query, code)
		}
		for _, w := range tt.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s lacks %q", tt.query, w)
			}
		}
		for _, w := range tt.not {
			if strings.Contains(body, w) {
				t.Errorf("%s shows %q", tt.query, w)
			}
		}
	}
	if code, _, body := s.get(t, "/?status=bogus"); code != http.StatusBadRequest || !strings.Contains(body, "running, passed, failed, error, stopped") {
		t.Errorf("bad filter = %d\n%s", code, body)
	}
	_, _, frag := s.get(t, "/fragments/runs?status=failed")
	if !strings.HasPrefix(strings.TrimSpace(frag), `<div id="runs-list"`) || strings.Contains(frag, "<html") || strings.Contains(frag, "run-pass") {
		t.Errorf("fragment = %q", frag)
	}
}

func TestEventStreamMarksVerifications(t *testing.T) {
	s := startSite(t)
	s.loop.PutFixRounds(t, "fix-2")
	var starts []string
	for _, e := range readSSE(t, s.srv.URL+"/runs/fix-2/events", "") {
		if e.name == "verification" {
			starts = append(starts, e.data)
		}
	}
	if len(starts) != 3 || !strings.Contains(starts[0], `"attempt":0`) || !strings.Contains(starts[2], `"attempt":2`) {
		t.Fatalf("verification events = %q", starts)
	}
}
