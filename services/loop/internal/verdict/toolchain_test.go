package verdict

import (
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestOldToolchainIsAnErrorNamingBothVersions checks rule old-toolchain: a
// crate whose rust-version is newer than the image's rustc was never
// built, so cargo's refusal (either wording) is an ERROR naming both
// versions and the image, not a FAIL of the code; a compile error stays.
func TestOldToolchainIsAnErrorNamingBothVersions(t *testing.T) {
	step := &glv1.Step{Name: "cargo-build", Command: "cargo build", Image: "greenlight/sandbox-rust:latest"}
	cases := []struct {
		name   string
		status glv1.StepStatus
		tail   string
		want   []string // in the reason; none: unchanged
	}{
		{"cargo before 1.75", glv1.StepStatus_STEP_STATUS_FAILED,
			"error: package `adder v0.1.0 (/workspace)` cannot be built because it requires rustc 1.70 or newer, " +
				"while the currently active rustc version is 1.63.0\n",
			[]string{"rustc 1.70", "has 1.63.0", "greenlight/sandbox-rust:latest", "images: {rust: IMAGE}"}},
		{"cargo 1.75 and later", glv1.StepStatus_STEP_STATUS_FAILED,
			"error: rustc 1.96.0 is not supported by the following package:\n  future@0.1.0 requires rustc 1.999\n",
			[]string{"requires rustc 1.999, the image has 1.96.0"}},
		{"a compile error", glv1.StepStatus_STEP_STATUS_FAILED, "error[E0425]: cannot find value `c`\n", nil},
		{"timed out with the message", glv1.StepStatus_STEP_STATUS_TIMED_OUT,
			"error: rustc 1.96.0 is not supported by the following package:\n  future@0.1.0 requires rustc 1.999\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := &glv1.StepResult{Status: c.status, ExitCode: 101, Tail: c.tail}
			got := oldToolchain(StepInput{Step: step, Result: in})
			if len(c.want) == 0 {
				if got != in {
					t.Fatalf("reclassified: %v", got)
				}
				return
			}
			if got.GetStatus() != glv1.StepStatus_STEP_STATUS_ERROR {
				t.Fatalf("status %s, want ERROR", got.GetStatus())
			}
			for _, w := range c.want {
				if !strings.Contains(got.GetReason(), w) {
					t.Errorf("reason %q lacks %q", got.GetReason(), w)
				}
			}
		})
	}
}
