package web

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestReportShowsSecurity: the security section lists each finding with
// severity, rule and location, marks the patch's new ones and an advisory
// scan's, escapes the scanner's text, and states the component; a run
// without a scan has no section.
func TestReportShowsSecurity(t *testing.T) {
	s := startSite(t)
	ev := func(step string) *glv1.Evidence { return &glv1.Evidence{Step: step} }
	s.loop.Put(&glv1.Run{Id: "run-sec", Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: glv1.RunStatus_RUN_STATUS_FAILED,
		Result: &glv1.Result{Status: glv1.Verdict_VERDICT_FAIL,
			Steps: []*glv1.StepResult{{Name: "secret-scan", Phase: glv1.Phase_PHASE_SECURITY, Optional: true, Status: glv1.StepStatus_STEP_STATUS_FAILED}},
			Failures: []*glv1.Failure{
				{File: "app.py", Line: 4, Kind: glv1.FailureKind_FAILURE_KIND_SECURITY, Rule: "aws-access-key-id", Severity: "high",
					Message: "aws-access-key-id: an AWS access key id is committed (AKIA… 20 characters) <b>", Evidence: ev("secret-scan"), Introduced: true},
			},
			Score: &glv1.Score{SecurityRan: true, Security: 0, SecurityFindings: 1}}})
	_, _, body := s.get(t, "/runs/run-sec")
	sec := between(t, body, "security-h", "")
	for _, w := range []string{"0/1 (1 finding(s))", "not in it", "<code>aws-access-key-id</code>", "<code>app.py:4</code>",
		`<tr class="worse"><td data-label="Severity">high <span class="badge">new in the patch</span> <span class="muted">advisory</span>`, "&lt;b&gt;"} {
		if !strings.Contains(sec, w) {
			t.Errorf("security section lacks %q:\n%s", w, sec)
		}
	}
	if strings.Contains(sec, "<b>") {
		t.Error("scanner text is not escaped")
	}
	_, _, body = s.get(t, "/runs/run-fail")
	if strings.Contains(body, `id="security-h"`) {
		t.Error("a run without a scan shows a security section")
	}
}
