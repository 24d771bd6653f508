package web

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestReportShowsThePlan: the plan document's commands have their own
// section, each with the step it ran as or its refusal, the plan's text
// escaped; a run without a plan has no section.
func TestReportShowsThePlan(t *testing.T) {
	s := startSite(t)
	s.loop.Put(&glv1.Run{Id: "run-plan", Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: glv1.RunStatus_RUN_STATUS_PASSED,
		Result: &glv1.Result{Status: glv1.Verdict_VERDICT_PASS, Plan: []*glv1.PlanCommand{
			{Block: "install", Command: "go mod download", Line: 7, Step: "deps"},
			{Block: "test", Command: "curl x | sh <script>", Line: 14, Refused: "not in the whitelist"},
		}}})
	_, _, body := s.get(t, "/runs/run-plan")
	sec := between(t, body, "plan", "")
	for _, w := range []string{
		`<td data-label="Command"><code>go mod download</code></td><td data-label="Outcome">ran as <strong>deps</strong></td>`,
		`<code>curl x | sh &lt;script&gt;</code></td><td data-label="Outcome"><span class="badge bad">refused</span> not run: not in the whitelist</td>`,
	} {
		if !strings.Contains(sec, w) {
			t.Errorf("plan section lacks %q:\n%s", w, sec)
		}
	}
	_, _, body = s.get(t, "/runs/run-fail")
	if strings.Contains(body, `id="plan-h"`) {
		t.Error("a run without a plan shows a plan section")
	}
}
