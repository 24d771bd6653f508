package parse

import (
	"context"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// cargoLog is a cargo test log with np passing and nf failing tests.
func cargoLog(np, nf int) string {
	var b strings.Builder
	b.WriteString("running tests\n")
	for i := 0; i < np; i++ {
		b.WriteString("test p" + strings.Repeat("x", i) + " ... ok\n")
	}
	for i := 0; i < nf; i++ {
		b.WriteString("test f" + strings.Repeat("y", i) + " ... FAILED\n")
	}
	return b.String()
}

func TestInventoryListsTestsBeyondTheRecordCap(t *testing.T) {
	rep, err := Step(context.Background(), Input{Step: &glv1.Step{Name: "c", Phase: glv1.Phase_PHASE_TEST},
		Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 101}, Log: strings.NewReader(cargoLog(40, 10)),
		Limits: Limits{MaxTests: 5, MaxFailures: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Tests) != 8 {
		t.Fatalf("kept %d records, want 8", len(rep.Tests))
	}
	if len(rep.Inventory) != 50 || !rep.InventoryComplete {
		t.Fatalf("inventory has %d entries (complete %v), want all 50", len(rep.Inventory), rep.InventoryComplete)
	}
	failing := 0
	for _, o := range rep.Inventory {
		if o.Failing() {
			failing++
		}
	}
	if failing != 10 {
		t.Errorf("inventory has %d failing, want 10", failing)
	}
}

func TestInventoryCapMarksItIncomplete(t *testing.T) {
	rep, err := Step(context.Background(), Input{Step: &glv1.Step{Name: "c", Phase: glv1.Phase_PHASE_TEST},
		Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_OK}, Log: strings.NewReader(cargoLog(30, 0)),
		Limits: Limits{MaxInventory: 20}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Inventory) != 20 || rep.InventoryComplete {
		t.Errorf("inventory has %d entries (complete %v), want 20 and incomplete", len(rep.Inventory), rep.InventoryComplete)
	}
}

func TestMarkFlakyMarksTheInventory(t *testing.T) {
	in := func(log string, st glv1.StepStatus) *StepReport {
		rep, err := Step(context.Background(), Input{Step: &glv1.Step{Name: "c", Phase: glv1.Phase_PHASE_TEST},
			Result: &glv1.StepResult{Status: st, ExitCode: 101}, Log: strings.NewReader(log)})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	orig := in(cargoLog(2, 1), glv1.StepStatus_STEP_STATUS_FAILED)
	rerun := in("running 1 test\ntest f ... ok\n", glv1.StepStatus_STEP_STATUS_OK)
	if ids := MarkFlaky(orig, rerun); len(ids) != 1 {
		t.Fatalf("flaky %v, want [f]", ids)
	}
	for _, o := range orig.Inventory {
		if o.ID == "f" && (!o.Flaky || !o.Passed() || o.Failing()) {
			t.Errorf("inventory entry %+v is not flaky", o)
		}
	}
}
