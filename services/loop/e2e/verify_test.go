package e2e_test

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

// fixedCalc is the calc project without its bug.
func fixedCalc() map[string]string {
	out := map[string]string{}
	for k, v := range enginetest.CalcFiles {
		out[k] = v
	}
	out["calc.py"] = strings.Replace(out["calc.py"], "return a - b", "return a + b", 1)
	return out
}

func TestVerifyPassingPythonProject(t *testing.T) {
	s := newStack(t)
	evs := s.verify(&glv1.VerifyRequest{Snapshot: s.snapshot(fixedCalc())})
	fin := finished(evs)
	res := fin.GetResult()
	for _, st := range res.GetSteps() {
		t.Logf("step %s %s exit %d", st.GetName(), st.GetStatus(), st.GetExitCode())
	}
	if fin.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED || res.GetStatus() != glv1.Verdict_VERDICT_PASS {
		t.Fatalf("status %s: %s\n%s", fin.GetStatus(), res.GetSummary(), res.GetTailLog())
	}
	if res.GetCounts().GetPassed() != 2 || res.GetCounts().GetFailed() != 0 || res.GetScore().GetTotal() < 8 {
		t.Errorf("counts %v score %v", res.GetCounts(), res.GetScore())
	}
	var done int
	for _, ev := range evs {
		if ev.GetVerificationDone() != nil {
			done++
		}
	}
	if done != 1 {
		t.Errorf("%d verifications, want one round", done)
	}
}
