package transition

import (
	"context"
	"io"
	"os"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
)

// jestSide parses a real jest capture (its --json report as the step's
// artifact, as the engine reads it) into a Side.
func jestSide(t *testing.T, name string, exit int32) *Side {
	t.Helper()
	dir := "../parse/testdata/golden/jest/"
	logf, err := os.Open(dir + name + ".log")
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	report, err := os.Open(dir + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	defer report.Close()
	st := glv1.StepStatus_STEP_STATUS_OK
	if exit != 0 {
		st = glv1.StepStatus_STEP_STATUS_FAILED
	}
	step := &glv1.Step{Name: "npm-test", Phase: glv1.Phase_PHASE_TEST, Workdir: "web"}
	res := &glv1.StepResult{Name: "npm-test", Status: st, ExitCode: exit}
	rep, err := parse.Step(context.Background(), parse.Input{Step: step, Result: res, Log: logf,
		Artifacts: map[string]io.Reader{"web/jest.json": report}})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.InventoryComplete {
		t.Fatalf("%s: inventory incomplete: %v", name, rep.Inventory)
	}
	return SideOf([]score.StepOutcome{{Step: step, Result: res, Report: rep}})
}

// TestJestTransitions compares two real jest runs of one suite: the ids
// are jest's file › describe › name paths, and a target may name them
// from the describe on.
func TestJestTransitions(t *testing.T) {
	base, cur := jestSide(t, "fail", 1), jestSide(t, "pass", 0)
	got := Compare(base, cur, Targets{FailToPass: []string{"sum > adds wrong"}})
	if got.GetFailToPass() != 2 || got.GetPassToPass() != 2 || got.GetPassToFail() != 0 || got.GetDisappeared() != 0 {
		t.Errorf("transitions %v, want 2 FAIL_TO_PASS and 2 PASS_TO_PASS", got)
	}
	if got.GetTargetFailToPass() != 1 || got.GetTargetFailToPassPassed() != 1 || got.GetResolution() != glv1.Resolution_RESOLUTION_FULL {
		t.Errorf("the target named from its describe: %v, want 1 matched, passing, FULL", got)
	}
	back := Compare(cur, base, Targets{})
	if back.GetPassToFail() != 2 || back.GetResolution() != glv1.Resolution_RESOLUTION_NO {
		t.Errorf("the other way round: %v, want 2 PASS_TO_FAIL and NO", back)
	}
}
