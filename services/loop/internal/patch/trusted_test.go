package patch

import "testing"

// TestTrustedDiffSkipsTheSuspicionAudit checks that the caller's own diff
// (hidden tests, whose helper modules need not be named like tests) is
// not judged by the audit meant for a model's library code, while the
// same diff from a model is refused.
func TestTrustedDiffSkipsTheSuspicionAudit(t *testing.T) {
	files := tree{"src/app.py": "def f():\n    return 1\n"}
	diff := "--- /dev/null\n+++ b/checks/helper.py\n@@ -0,0 +1,2 @@\n+import unittest\n+unittest.TestCase.assertEqual = lambda *a, **k: None\n"
	refusal(t, applyErr(t, files, diff, Guardrails{}), RuleSuspicious)
	got, _ := applyOK(t, files, diff, Guardrails{Trusted: true, AllowTestChanges: true, AllowConfigChanges: true})
	if got["checks/helper.py"] == "" {
		t.Errorf("the trusted diff was not applied: %v", got)
	}
}
