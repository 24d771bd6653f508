package verdict

import (
	"fmt"
	"regexp"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// cargo's refusal of a package whose rust-version is newer than the
// image's rustc: before cargo 1.75 "cannot be built because it requires
// rustc 1.70 or newer, while the currently active rustc version is 1.63.0",
// since then "rustc 1.96.0 is not supported by the following package:" and
// "  x@0.1.0 requires rustc 1.999" on the next line.
var (
	reRustTooOld     = regexp.MustCompile(`cannot be built because it requires rustc (\S+) or newer, while the currently active rustc version is (\S+)`)
	reRustNotSupport = regexp.MustCompile(`rustc (\S+) is not supported by the following packages?:\s*\n\s+\S+ requires rustc (\S+)`)
)

// rustVersions returns the version a package needs and the image's rustc
// version when a log shows cargo's refusal.
func rustVersions(tail string) (need, have string, ok bool) {
	if m := reRustTooOld.FindStringSubmatch(tail); m != nil {
		return m[1], m[2], true
	}
	if m := reRustNotSupport.FindStringSubmatch(tail); m != nil {
		return m[2], m[1], true
	}
	return "", "", false
}

// oldToolchain turns a step that failed only because the image's
// toolchain is older than the project declares into an ERROR naming both
// versions: the code was never built, so a FAIL would blame it for the
// sandbox. Any other result is returned unchanged.
func oldToolchain(in StepInput) *glv1.StepResult {
	s, r := in.Step, in.Result
	if r.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED {
		return r
	}
	need, have, ok := rustVersions(r.GetTail())
	if !ok {
		return r
	}
	img := r.GetImage()
	if img == "" {
		img = s.GetImage()
	}
	out := proto.Clone(r).(*glv1.StepResult)
	out.Status = glv1.StepStatus_STEP_STATUS_ERROR
	out.Reason = fmt.Sprintf("toolchain too old in %s: the package requires rustc %s, the image has %s; "+
		"use an image with a newer Rust (greenlight.yaml `images: {rust: IMAGE}`, from the server's allow-list)", img, need, have)
	return out
}
