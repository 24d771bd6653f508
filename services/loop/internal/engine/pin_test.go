package engine_test

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
	"github.com/greenlight-dev/greenlight/services/loop/internal/verdict"
)

// addGreenlightYAML adds a greenlight.yaml (what it says does not matter:
// the rule is about the path).
const addGreenlightYAML = "--- /dev/null\n+++ b/greenlight.yaml\n@@ -0,0 +1,3 @@\n+steps:\n+  - name: ok\n+    run: python3 -m pytest tests/test_calc.py::test_sub\n"

// TestFixPinsThePlan: discovery plans once, from the original snapshot,
// and every later verification says it reuses the pinned plan.
func TestFixPinsThePlan(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	snap := h.snapshot(enginetest.CalcFiles)
	run, evs, _ := h.fix(&glv1.FixOptions{}, snap,
		scriptedReply{patch: enginetest.BreakingPatch}, scriptedReply{patch: enginetest.FixPatch})
	if !run.GetMetrics().GetGreen() || run.GetMetrics().GetRounds() != 2 {
		t.Fatalf("metrics %v", run.GetMetrics())
	}
	plans := h.disc.Plans()
	if len(plans) != 1 || plans[0].GetSnapshot().GetHash() != snap.GetHash() {
		t.Fatalf("discovery planned %d time(s): %v; want once, from the original snapshot", len(plans), plans)
	}
	var notes []string
	for _, ev := range evs {
		if d := ev.GetDiscoveryDone(); d != nil {
			notes = append(notes, strings.Join(d.GetCapabilities().GetNotes(), " | "))
		}
	}
	if len(notes) != 3 || !strings.Contains(notes[0], "this plan is pinned") ||
		!strings.Contains(notes[1], "pinned from the baseline snapshot is reused") || !strings.Contains(notes[2], "reused") {
		t.Errorf("DiscoveryDone notes %q", notes)
	}
}

// TestFixRefusesConfigPatch: a patch adding greenlight.yaml is refused with
// rule "config", even when the repository's allow-list names the file;
// only the caller's allow_config_changes lets it apply.
func TestFixRefusesConfigPatch(t *testing.T) {
	for _, c := range []struct {
		name      string
		repoAllow []string
		allow     bool
	}{
		{"default", nil, false},
		{"repo allow-list names it", []string{"greenlight.yaml", "calc.py"}, false},
		{"caller allows", nil, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
			h.disc.SetPatchAllow(c.repoAllow...)
			run, _, prov := h.fix(&glv1.FixOptions{MaxRounds: 1, Guardrails: &glv1.Guardrails{AllowConfigChanges: c.allow}},
				h.snapshot(enginetest.CalcFiles), scriptedReply{patch: addGreenlightYAML})
			p := run.GetPatches()[0]
			if c.allow {
				if !p.GetApplied() || p.GetRule() == "config" {
					t.Fatalf("allowed config patch: %v", p)
				}
				if !prov.Requests()[0].GetConstraints().GetAllowConfigChanges() {
					t.Errorf("constraints %v", prov.Requests()[0].GetConstraints())
				}
			} else if p.GetApplied() || !p.GetRolledBack() || p.GetRule() != "config" || !strings.Contains(p.GetReason(), "greenlight.yaml") {
				t.Fatalf("config patch: applied %t rule %q reason %q", p.GetApplied(), p.GetRule(), p.GetReason())
			}
			if run.GetStatus() == glv1.RunStatus_RUN_STATUS_PASSED {
				t.Errorf("status %s", run.GetStatus())
			}
		})
	}
}

// TestFixPlanReadsAreConfig: the Makefile a pinned step runs counts as
// config; a patch editing it is refused.
func TestFixPlanReadsAreConfig(t *testing.T) {
	steps := enginetest.CalcSteps()
	steps[1].Command = "make test"
	h := newHarness(t, engine.Config{}, steps...)
	files := map[string]string{"Makefile": "test:\n\tpython3 -m pytest -rA\n"}
	for k, v := range enginetest.CalcFiles {
		files[k] = v
	}
	run, _, _ := h.fix(&glv1.FixOptions{MaxRounds: 1}, h.snapshot(files),
		scriptedReply{patch: "--- a/Makefile\n+++ b/Makefile\n@@ -1,2 +1,2 @@\n test:\n-\tpython3 -m pytest -rA\n+\ttrue\n"})
	if p := run.GetPatches()[0]; p.GetApplied() || p.GetRule() != "config" || !strings.Contains(p.GetReason(), "Makefile") {
		t.Fatalf("Makefile patch: %v", p)
	}
}

// TestFixRecordsRules: every patch that is not kept records its rule.
func TestFixRecordsRules(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()...)
	run, _, _ := h.fix(&glv1.FixOptions{MaxRounds: 4}, h.snapshot(enginetest.CalcFiles),
		scriptedReply{patch: "no patch here"}, scriptedReply{patch: enginetest.NonApplyingPatch},
		scriptedReply{patch: enginetest.TestEditPatch}, scriptedReply{patch: enginetest.BreakingPatch})
	var rules []string
	for _, p := range run.GetPatches() {
		rules = append(rules, p.GetRule())
	}
	want := []string{engine.RuleMalformed, engine.RuleDoesNotApply, "test-edit", verdict.RuleRegression}
	if strings.Join(rules, ",") != strings.Join(want, ",") {
		t.Errorf("rules %q, want %q", rules, want)
	}
}
