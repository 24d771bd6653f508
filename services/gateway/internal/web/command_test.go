package web

import (
	"fmt"
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

// A generated script of a kilobyte or more is shown in its brief form, or
// by its display when discovery gave it one, in the step table and in the
// banner naming the failed step: never spelled out there. The step's cell
// expands to the whole command that ran, which appears once on the page,
// and the step's log page has it too.
func TestLongCommandsAreShownBrief(t *testing.T) {
	const label = "greenlight checks pip-install: a failed install fails here; offline, installs the project without its dependencies"
	tests := []struct {
		name, display, shown string
	}{
		{name: "cut to its first words", shown: display.BriefText(pipFallback)},
		{name: "shown by its display", display: label, shown: label},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := startSite(t)
			id := fmt.Sprintf("run-pip-%d", i)
			run := loopfake.FailingVerifyRun(id, s.logs)
			for _, st := range run.GetResult().GetSteps() {
				if st.GetName() == "go-test" {
					st.Command, st.DisplayCommand = pipFallback, tt.display
				}
			}
			for _, f := range run.GetResult().GetFailures() {
				f.Evidence.Command = pipFallback
			}
			s.loop.Put(run)
			code, _, body := s.get(t, "/runs/"+id)
			if code != 200 {
				t.Fatalf("status %d\n%s", code, body)
			}
			shown, whole := html.EscapeString(tt.shown), html.EscapeString(pipFallback)
			if tt.display == "" && !strings.Contains(shown, "… (") {
				t.Fatalf("the test script is not long enough to be cut: %q", shown)
			}
			for _, want := range []string{
				`<details class="cmd"><summary><code>` + shown + `</code></summary><pre class="cmd-full" aria-label="The command that ran">` + whole + `</pre></details>`,
				"Execution failed: step go-test (" + shown,
			} {
				if !strings.Contains(body, want) {
					t.Errorf("page lacks %.300q", want)
				}
			}
			if n := strings.Count(body, whole); n != 1 {
				t.Errorf("the whole script appears %d times on the page, want once (the step's expandable cell)", n)
			}
			// The log page: the display (else the whole command), and
			// below it the command that ran when that is something else.
			code, _, body = s.get(t, "/runs/"+id+"/logs/go-test")
			ran := `<pre class="cmd-full">` + whole + `</pre>`
			if code != 200 || !strings.Contains(body, "<code>"+html.EscapeString(firstNonEmpty(tt.display, pipFallback))+"</code>") {
				t.Errorf("log page (status %d) does not name the step's command:\n%.2000s", code, body)
			}
			if got := strings.Contains(body, ran); got != (tt.display != "") {
				t.Errorf("log page shows the command that ran: %v, want %v", got, tt.display != "")
			}
		})
	}
}
