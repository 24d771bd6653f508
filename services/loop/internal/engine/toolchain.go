package engine

import (
	"fmt"
	"regexp"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// reRustTooOld is cargo's refusal of a package whose rust-version is newer
// than the image's rustc (Debian bookworm's is 1.63).
var reRustTooOld = regexp.MustCompile(`(?m)cannot be built because it requires rustc (\S+) or newer, while the currently active rustc version is (\S+)`)

// classifyOldToolchain turns a step that failed only because the image's
// toolchain is older than the project declares into an ERROR naming both
// versions: the code was never built, so a FAIL would blame it for the
// sandbox. Any other result is returned unchanged.
func classifyOldToolchain(s *glv1.Step, r *glv1.StepResult) *glv1.StepResult {
	if r.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED {
		return r
	}
	m := reRustTooOld.FindStringSubmatch(r.GetTail())
	if m == nil {
		return r
	}
	img := r.GetImage()
	if img == "" {
		img = s.GetImage()
	}
	out := proto.Clone(r).(*glv1.StepResult)
	out.Status = glv1.StepStatus_STEP_STATUS_ERROR
	out.Reason = fmt.Sprintf("toolchain too old in %s: the package requires rustc %s, the image has %s; "+
		"use an image with a newer Rust (greenlight.yaml `images: {rust: IMAGE}`, from the server's allow-list)", img, m[1], m[2])
	return out
}
