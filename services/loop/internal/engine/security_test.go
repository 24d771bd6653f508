package engine

import (
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func TestMarkIntroduced(t *testing.T) {
	sec := func(rule, file string, line int32) *glv1.Failure {
		return &glv1.Failure{Kind: glv1.FailureKind_FAILURE_KIND_SECURITY, Rule: rule, File: file, Line: line, Message: rule + " in " + file,
			Evidence: &glv1.Evidence{Step: "scan"}}
	}
	scan := func(st glv1.StepStatus) []*glv1.StepResult {
		return []*glv1.StepResult{{Name: "scan", Phase: glv1.Phase_PHASE_SECURITY, Status: st}}
	}
	ran := scan(glv1.StepStatus_STEP_STATUS_FAILED)
	cases := []struct {
		name      string
		steps     []*glv1.StepResult
		baseline  []*glv1.Failure
		now       []*glv1.Failure
		wantIntro []bool
	}{
		{"a moved finding is old", ran, []*glv1.Failure{sec("B602", "app.py", 9)}, []*glv1.Failure{sec("B602", "app.py", 12)}, []bool{false}},
		{"a new rule is new", ran, []*glv1.Failure{sec("B602", "app.py", 9)}, []*glv1.Failure{sec("B602", "app.py", 9), sec("private-key", "key.pem", 1)}, []bool{false, true}},
		{"a second of a kind is new", ran, []*glv1.Failure{sec("B602", "app.py", 9)}, []*glv1.Failure{sec("B602", "app.py", 9), sec("B602", "app.py", 20)}, []bool{false, true}},
		{"no baseline finding", scan(glv1.StepStatus_STEP_STATUS_OK), nil, []*glv1.Failure{sec("B404", "app.py", 1)}, []bool{true}},
		{"the baseline skipped the scan", scan(glv1.StepStatus_STEP_STATUS_SKIPPED), nil, []*glv1.Failure{sec("B404", "app.py", 1)}, []bool{false}},
		{"the baseline had no scan", nil, nil, []*glv1.Failure{sec("B404", "app.py", 1)}, []bool{false}},
		{"a test failure is never marked", ran, nil, []*glv1.Failure{{Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION, File: "a_test.go"}}, []bool{false}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			markIntroduced(tc.now, &glv1.Result{Steps: tc.steps, Failures: tc.baseline})
			for i, f := range tc.now {
				if f.GetIntroduced() != tc.wantIntro[i] {
					t.Errorf("finding %d (%s %s:%d): introduced %v, want %v", i, f.GetRule(), f.GetFile(), f.GetLine(), f.GetIntroduced(), tc.wantIntro[i])
				}
			}
		})
	}
}
