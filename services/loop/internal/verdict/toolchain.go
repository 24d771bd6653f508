package verdict

import (
	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/toolchain"
	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
)

// oldToolchain turns a step that failed only because the image's
// toolchain is older than the project declares into an ERROR naming both
// versions (a toolchain pack's EnvDiagnoser recognises the log: cargo's
// refusal of a too-new rust-version; tooOldTool other tools'
// refusals: pytest's minversion, requires-python, the go directive, CMake,
// engines, the JDK): the code was never built or tested, so a FAIL
// would blame it for the sandbox. Any other result is returned unchanged.
func oldToolchain(in StepInput) *glv1.StepResult {
	s, r := in.Step, in.Result
	if r.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED {
		return r
	}
	img := r.GetImage()
	if img == "" {
		img = s.GetImage()
	}
	if reason, ok := tooOldTool(tailLines(r.GetTail(), recentLines), img); ok {
		out := proto.Clone(r).(*glv1.StepResult)
		out.Status = glv1.StepStatus_STEP_STATUS_ERROR
		out.Reason = reason
		return out
	}
	for _, p := range packs.Registry.All() {
		d, ok := p.(toolchain.EnvDiagnoser)
		if !ok {
			continue
		}
		if reason, ok := d.DiagnoseEnv(r.GetTail(), img); ok {
			out := proto.Clone(r).(*glv1.StepResult)
			out.Status = glv1.StepStatus_STEP_STATUS_ERROR
			out.Reason = reason
			return out
		}
	}
	return r
}
