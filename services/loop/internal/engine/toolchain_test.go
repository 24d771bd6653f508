package engine

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// A crate whose rust-version is newer than the image's rustc was never
// built: ERROR naming both versions and the image, not a FAIL of the code.
func TestOldToolchain(t *testing.T) {
	step := &glv1.Step{Name: "cargo-build", Command: "cargo build", Image: "greenlight/sandbox-rust:latest"}
	tail := "error: package `adder v0.1.0 (/workspace)` cannot be built because it requires rustc 1.70 or newer, " +
		"while the currently active rustc version is 1.63.0\n"
	got := classifyOldToolchain(step, &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 101, Tail: tail})
	if got.GetStatus() != glv1.StepStatus_STEP_STATUS_ERROR {
		t.Fatalf("status %s, want ERROR", got.GetStatus())
	}
	for _, want := range []string{"rustc 1.70", "has 1.63.0", "greenlight/sandbox-rust:latest", "images: {rust: IMAGE}"} {
		if !strings.Contains(got.GetReason(), want) {
			t.Errorf("reason %q lacks %q", got.GetReason(), want)
		}
	}
	newer := "error: rustc 1.96.0 is not supported by the following package:\n  future@0.1.0 requires rustc 1.999\n"
	got = classifyOldToolchain(step, &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 101, Tail: newer})
	if got.GetStatus() != glv1.StepStatus_STEP_STATUS_ERROR || !strings.Contains(got.GetReason(), "requires rustc 1.999, the image has 1.96.0") {
		t.Errorf("cargo ≥ 1.75's message: %s %q", got.GetStatus(), got.GetReason())
	}
	other := &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 101, Tail: "error[E0425]: cannot find value `c`\n"}
	if got := classifyOldToolchain(step, other); got != other {
		t.Errorf("a compile error was reclassified: %v", got)
	}
}
