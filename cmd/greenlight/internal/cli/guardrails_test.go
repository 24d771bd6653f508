package cli

import "testing"

// TestFixAllowConfigChangesFlag: --allow-config-changes reaches the
// guardrails, and is off by default.
func TestFixAllowConfigChangesFlag(t *testing.T) {
	off := (&fixFlags{}).options(nil)
	if off.GetGuardrails().GetAllowConfigChanges() {
		t.Errorf("default guardrails %v", off.GetGuardrails())
	}
	on := (&fixFlags{allowConfig: true}).options(nil)
	if !on.GetGuardrails().GetAllowConfigChanges() || on.GetGuardrails().GetAllowTestChanges() {
		t.Errorf("guardrails %v", on.GetGuardrails())
	}
}
