package web

import (
	"html"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/display"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/loopfake"
)

// pipFallback is the kind of script discovery generates for a pip project
// (1-2 KB on one line).
var pipFallback = "if [ -f .venv/greenlight-installed ]; then printf '%s\\n' 'greenlight: pip-install installed everything'; exit 0; fi; " +
	strings.Repeat("if ! grep -qE 'Temporary failure in name resolution|Could not fetch URL' .venv/greenlight-pip.log; then exit 1; fi; ", 12)

// A generated script of a kilobyte or more is shown in its brief form in
// the step table (the whole command in the cell's title) and in the
// banner naming the failed step, never spelled out.
func TestLongCommandsAreShownBrief(t *testing.T) {
	s := startSite(t)
	run := loopfake.FailingVerifyRun("run-pip", s.logs)
	for _, st := range run.GetResult().GetSteps() {
		if st.GetName() == "go-test" {
			st.Command, st.DisplayCommand = pipFallback, ""
		}
	}
	for _, f := range run.GetResult().GetFailures() {
		f.Evidence.Command = pipFallback
	}
	s.loop.Put(run)
	code, _, body := s.get(t, "/runs/run-pip")
	if code != 200 {
		t.Fatalf("status %d\n%s", code, body)
	}
	brief := html.EscapeString(display.BriefText(pipFallback))
	if !strings.Contains(brief, "… (") {
		t.Fatalf("the test script is not long enough to be cut: %q", brief)
	}
	for _, want := range []string{
		`<code title="` + html.EscapeString(pipFallback) + `">` + brief + `</code>`,
		"Execution failed: step go-test (" + brief,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %.300q", want)
		}
	}
	if n := strings.Count(body, html.EscapeString(pipFallback)); n != 1 {
		t.Errorf("the whole script appears %d times on the page, want once (the step cell's title)", n)
	}
}
