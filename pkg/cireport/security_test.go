package cireport

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// securityRun is a verification whose advisory secret scan and required
// bandit step found three things, one introduced by the patch.
func securityRun() *glv1.Run {
	ev := func(step string) *glv1.Evidence { return &glv1.Evidence{Step: step, Command: step, ExitCode: 1} }
	return &glv1.Run{Id: "r1", Result: &glv1.Result{
		Status: glv1.Verdict_VERDICT_FAIL, RunId: "r1",
		Steps: []*glv1.StepResult{
			{Name: "secret-scan", Phase: glv1.Phase_PHASE_SECURITY, Status: glv1.StepStatus_STEP_STATUS_FAILED, Optional: true, ExitCode: 1},
			{Name: "bandit", Phase: glv1.Phase_PHASE_SECURITY, Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1},
		},
		Failures: []*glv1.Failure{
			{File: "app.py", Line: 1, Kind: glv1.FailureKind_FAILURE_KIND_SECURITY, Rule: "B404", Severity: "low", Message: "B404 (low): subprocess", Evidence: ev("bandit")},
			{File: "app.py", Line: 9, Kind: glv1.FailureKind_FAILURE_KIND_SECURITY, Rule: "B602", Severity: "high", Message: "B602 (high): shell=True", Evidence: ev("bandit"), Introduced: true},
			{File: "deploy_key.pem", Line: 1, Kind: glv1.FailureKind_FAILURE_KIND_SECURITY, Rule: "private-key", Severity: "high", Message: "private-key: a private key is committed", Evidence: ev("secret-scan")},
		},
		Score: &glv1.Score{Total: 4, SecurityRan: true, Security: 0, SecurityFindings: 3},
	}}
}

// TestSecuritySARIF: one rule per scanner rule, levels from the severity
// (an advisory step's high finding is a warning), severity and introduced
// as properties.
func TestSecuritySARIF(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, securityRun(), Options{}); err != nil {
		t.Fatal(err)
	}
	var doc sarifLog
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"security/B404": "note", "security/B602": "error", "security/private-key": "warning"}
	run := doc.Runs[0]
	if len(run.Results) != len(want) || len(run.Tool.Driver.Rules) != len(want) {
		t.Fatalf("%d results, %d rules; want %d of each", len(run.Results), len(run.Tool.Driver.Rules), len(want))
	}
	for _, r := range run.Results {
		if lvl, ok := want[r.RuleID]; !ok || r.Level != lvl {
			t.Errorf("result %s: level %q, want %q (known %v)", r.RuleID, r.Level, lvl, ok)
		}
		if run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %s points at rule %s", r.RuleID, run.Tool.Driver.Rules[r.RuleIndex].ID)
		}
		if r.Properties["severity"] == nil {
			t.Errorf("result %s has no severity", r.RuleID)
		}
		if (r.RuleID == "security/B602") != (r.Properties["introduced"] == true) {
			t.Errorf("result %s: introduced %v", r.RuleID, r.Properties["introduced"])
		}
	}
}

// TestSecurityMarkdown: the section lists every finding, the patch's new
// one first, with the component.
func TestSecurityMarkdown(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, securityRun(), Options{}); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	i := strings.Index(md, "### Security (3 finding(s))")
	if i < 0 {
		t.Fatalf("no security section:\n%s", md)
	}
	sec := md[i:]
	for _, w := range []string{"Security component 0/1", "high (new in the patch)", "`B602`", "`app.py:9`", "`private-key`", "high (advisory)", "`B404`"} {
		if !strings.Contains(sec, w) {
			t.Errorf("security section lacks %q:\n%s", w, sec)
		}
	}
	if strings.Index(sec, "B602") > strings.Index(sec, "private-key") {
		t.Errorf("the introduced finding is not first:\n%s", sec)
	}
}
