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
