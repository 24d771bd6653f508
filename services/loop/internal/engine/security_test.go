package engine

import (
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func TestMarkIntroduced(t *testing.T) {
	sec := func(rule, file string, line int32) *glv1.Failure {
		return &glv1.Failure{Kind: glv1.FailureKind_FAILURE_KIND_SECURITY, Rule: rule, File: file, Line: line, Message: rule + " in " + file}
	}
	cases := []struct {
		name      string
		baseline  []*glv1.Failure
		now       []*glv1.Failure
		wantIntro []bool
	}{
		{"a moved finding is old", []*glv1.Failure{sec("B602", "app.py", 9)}, []*glv1.Failure{sec("B602", "app.py", 12)}, []bool{false}},
		{"a new rule is new", []*glv1.Failure{sec("B602", "app.py", 9)}, []*glv1.Failure{sec("B602", "app.py", 9), sec("private-key", "key.pem", 1)}, []bool{false, true}},
		{"a second of a kind is new", []*glv1.Failure{sec("B602", "app.py", 9)}, []*glv1.Failure{sec("B602", "app.py", 9), sec("B602", "app.py", 20)}, []bool{false, true}},
		{"no baseline finding", nil, []*glv1.Failure{sec("B404", "app.py", 1)}, []bool{true}},
		{"a test failure is never marked", nil, []*glv1.Failure{{Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION, File: "a_test.go"}}, []bool{false}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			markIntroduced(tc.now, tc.baseline)
			for i, f := range tc.now {
				if f.GetIntroduced() != tc.wantIntro[i] {
					t.Errorf("finding %d (%s %s:%d): introduced %v, want %v", i, f.GetRule(), f.GetFile(), f.GetLine(), f.GetIntroduced(), tc.wantIntro[i])
				}
			}
		})
	}
}
