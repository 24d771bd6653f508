package engine

import (
	"fmt"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// The probe runs right after the installs, builds and required checks
// before it: security scans and advisory lint and type checks wait until
// it passed, and every step keeps its event index and maps back to its
// place in the pipeline.
func TestCombineDefersScansAndAdvisoryChecks(t *testing.T) {
	st := func(name string, ph glv1.Phase, optional bool) *glv1.Step {
		return &glv1.Step{Name: name, Phase: ph, Optional: optional}
	}
	pl := &glv1.Pipeline{Steps: []*glv1.Step{
		st("pip-install", glv1.Phase_PHASE_INSTALL, false),
		st("secret-scan", glv1.Phase_PHASE_SECURITY, true),
		st("bandit", glv1.Phase_PHASE_SECURITY, false),
		st("ruff", glv1.Phase_PHASE_LINT, true),
		st("mypy", glv1.Phase_PHASE_TYPECHECK, false),
		st("compileall", glv1.Phase_PHASE_BUILD, false),
		st("pytest", glv1.Phase_PHASE_TEST, false),
		st("import-calc", glv1.Phase_PHASE_SMOKE, true),
	}}
	p := &probe{at: 6, steps: []*glv1.Step{st("pytest:probe", glv1.Phase_PHASE_TEST, false)}}
	combined, eventIndex, orig := p.combine(pl)
	var names []string
	for _, s := range combined.GetSteps() {
		names = append(names, s.GetName())
	}
	if got, want := strings.Join(names, ","), "pip-install,mypy,compileall,pytest:probe,secret-scan,bandit,ruff,pytest,import-calc"; got != want {
		t.Errorf("combined order %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(eventIndex), "[0 4 5 8 1 2 3 6 7]"; got != want {
		t.Errorf("event indexes %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(orig), "[0 4 5 -1 1 2 3 6 7]"; got != want {
		t.Errorf("orig %s, want %s", got, want)
	}
	if len(pl.GetSteps()) != 8 || pl.GetSteps()[1].GetName() != "secret-scan" {
		t.Errorf("combine changed the pipeline it was given: %v", pl.GetSteps())
	}
	results := make([]*glv1.StepResult, len(combined.GetSteps()))
	for i, s := range combined.GetSteps() {
		results[i] = &glv1.StepResult{Name: s.GetName()}
	}
	probed, full := p.split(&execution{results: results}, orig, len(pl.GetSteps()))
	if len(probed) != 1 || probed[0].GetName() != "pytest:probe" {
		t.Errorf("probe results %v", probed)
	}
	for i, res := range full.results {
		if res.GetName() != pl.GetSteps()[i].GetName() {
			t.Errorf("full result %d is %s, want %s", i, res.GetName(), pl.GetSteps()[i].GetName())
		}
	}
}
