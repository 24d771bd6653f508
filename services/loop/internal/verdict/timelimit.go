package verdict

import (
	"fmt"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// RuleTimeLimit: an install or build step was still working when
// greenlight's own time limit for it ran out. A CI runner has more cores
// and hours of job time; a compile that outgrows this machine's limit says
// nothing about the code (which never reached its tests), so the run has
// no verdict rather than a FAIL. A test step that times out on its own
// limit stays a failure: a hang there is the code's (an injected infinite
// loop); one the verification's budget cut short has no result either.
const RuleTimeLimit = "time-limit"

// timeLimit makes a required install or build step that TIMED_OUT an
// ERROR naming the limit and the setting that raises it.
func timeLimit(in StepInput) *glv1.StepResult {
	s, r, rep := in.Step, in.Result, in.Report
	if r.GetStatus() != glv1.StepStatus_STEP_STATUS_TIMED_OUT || s.GetOptional() {
		return r
	}
	// Tests that failed before the limit decide: the code is wrong
	// whatever the rest would have done (idna's injected bug made its
	// ~1000 failing tests slow enough to reach the budget).
	if rep != nil && rep.Counts.Failed+rep.Counts.Errors > 0 {
		return r
	}
	phase := s.GetPhase()
	word := strings.ToLower(strings.TrimPrefix(phase.String(), "PHASE_"))
	own, ran := s.GetTimeout().AsDuration(), r.GetDuration().AsDuration()
	if ran <= 0 && r.GetStartedAt() != nil && r.GetFinishedAt() != nil {
		ran = r.GetFinishedAt().AsTime().Sub(r.GetStartedAt().AsTime())
	}
	out := proto.Clone(r).(*glv1.StepResult)
	out.Status = glv1.StepStatus_STEP_STATUS_ERROR
	out.Rule = RuleTimeLimit
	// The executor says so ("the run budget of … was exhausted"); a step
	// that ended well before its own limit was cut by the budget too.
	if strings.Contains(r.GetReason(), "run budget") || own > 0 && ran > 0 && ran < own*9/10 {
		// The run's budget, not the step's own limit, ended it: nothing
		// shows a hang, even in a test step.
		after := "after " + ran.Round(time.Second).String()
		if own > 0 {
			after += "; its own limit is " + own.String()
		}
		out.Reason = fmt.Sprintf("environment: the verification's time budget ran out while the %s step %q was running "+
			"(%s); its result is unknown. Raise the budget (verify --time-budget, greenlight.yaml `time_budget:`) "+
			"or run fewer steps", word, s.GetName(), after)
		return out
	}
	if phase != glv1.Phase_PHASE_INSTALL && phase != glv1.Phase_PHASE_BUILD {
		return r
	}
	limit := "its time limit"
	if own > 0 {
		limit = own.String()
	}
	out.Reason = fmt.Sprintf("environment: the %s step %q was still running when greenlight's limit of %s ran out "+
		"(this machine is slower than a CI runner); the code's tests never ran. Raise it in greenlight.yaml "+
		"(`timeouts: {%s: 30m}`, or `timeout:` on the step)", word, s.GetName(), limit, word)
	return out
}
