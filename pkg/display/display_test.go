package display

import (
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func TestCommand(t *testing.T) {
	wrapped := &glv1.StepResult{Command: "{ go test -json ./...; echo $? >rc; } | tee r.jsonl", DisplayCommand: "go test -json ./..."}
	if got := Command(wrapped); got != "go test -json ./..." {
		t.Errorf("wrapped: %q", got)
	}
	if got := Command(&glv1.Step{Command: "make test"}); got != "make test" {
		t.Errorf("plain: %q", got)
	}
}

func TestTransitions(t *testing.T) {
	got := Transitions(&glv1.Transitions{FailToPass: 2, PassToPass: 40, FailToFail: 1, Resolution: glv1.Resolution_RESOLUTION_FULL,
		TargetFailToPass: 2, TargetFailToPassPassed: 2, TargetPassToPass: 40, TargetPassToPassPassed: 40,
		FailingOutsideTarget: []string{"vet"}, Complete: true})
	want := "resolution FULL; tests 2 fail→pass, 40 pass→pass, 1 fail→fail; target 2/2 fail→pass, 40/40 pass→pass; failing outside the target (as at baseline): vet"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if Transitions(nil) != "" {
		t.Error("nil transitions render")
	}
	if k := TransitionKind(glv1.TransitionKind_TRANSITION_KIND_PASS_TO_FAIL); k != "PASS_TO_FAIL" {
		t.Errorf("kind %q", k)
	}
}
