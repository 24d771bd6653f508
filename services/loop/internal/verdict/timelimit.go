package verdict

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// RuleTimeLimit: an install or build step was still working when
// greenlight's own time limit for it ran out. A CI runner has more cores
// and hours of job time; a compile that outgrows this machine's limit says
// nothing about the code (which never reached its tests), so the run has
// no verdict rather than a FAIL. A test step that times out stays a
// failure: a hang there is the code's (an injected infinite loop).
const RuleTimeLimit = "time-limit"

// timeLimit makes a required install or build step that TIMED_OUT an
// ERROR naming the limit and the setting that raises it.
func timeLimit(in StepInput) *glv1.StepResult {
	s, r := in.Step, in.Result
	if r.GetStatus() != glv1.StepStatus_STEP_STATUS_TIMED_OUT || s.GetOptional() {
		return r
	}
	phase := s.GetPhase()
	if phase != glv1.Phase_PHASE_INSTALL && phase != glv1.Phase_PHASE_BUILD {
		return r
	}
	limit := "its time limit"
	if d := s.GetTimeout().AsDuration(); d > 0 {
		limit = d.String()
	}
	word := strings.ToLower(strings.TrimPrefix(phase.String(), "PHASE_"))
	out := proto.Clone(r).(*glv1.StepResult)
	out.Status = glv1.StepStatus_STEP_STATUS_ERROR
	out.Rule = RuleTimeLimit
	out.Reason = fmt.Sprintf("environment: the %s step %q was still running when greenlight's limit of %s ran out "+
		"(this machine is slower than a CI runner); the code's tests never ran. Raise it in greenlight.yaml "+
		"(`timeouts: {%s: 30m}`, or `timeout:` on the step)", word, s.GetName(), limit, word)
	return out
}
