package web

import (
	"fmt"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// Banner classes (CSS and tests).
const (
	bannerPass    = "pass"
	bannerFail    = "fail"
	bannerError   = "error"
	bannerRunning = "running"
	bannerStopped = "stopped"
)

// banner is the status statement at the top of a report.
type banner struct {
	Class  string
	Title  string
	Detail []string
}

// newBanner states what the run proves. "Execution passed" needs a PASS
// verdict AND evidence: at least one step that ran, every required step
// that ran exited 0 with status OK. A PASS without that evidence is shown
// as an error, never as a pass: the page must not certify what did not run.
func newBanner(run *glv1.Run) banner {
	switch run.GetStatus() {
	case glv1.RunStatus_RUN_STATUS_PENDING, glv1.RunStatus_RUN_STATUS_RUNNING:
		return banner{Class: bannerRunning, Title: "Verification in progress: no verdict yet",
			Detail: []string{"Steps and output appear below as they happen; this summary updates when the run finishes."}}
	case glv1.RunStatus_RUN_STATUS_CANCELED:
		return banner{Class: bannerStopped, Title: "Run canceled before a verdict: the code is not verified"}
	case glv1.RunStatus_RUN_STATUS_INTERRUPTED:
		return banner{Class: bannerStopped, Title: "Run interrupted (the service stopped): the code is not verified",
			Detail: []string{"Events up to the interruption are kept; start a new verification."}}
	}
	res := run.GetResult()
	switch res.GetStatus() {
	case glv1.Verdict_VERDICT_PASS:
		return partialBanner(res, passBanner(run))
	case glv1.Verdict_VERDICT_FAIL:
		return partialBanner(res, failBanner(res))
	}
	why := firstNonEmpty(run.GetError(), res.GetSummary(), "no result was recorded")
	return banner{Class: bannerError, Title: "Verification could not be carried out: nothing can be concluded about the code",
		Detail: []string{why}}
}

// partialBanner says, first, that a selective verification's verdict is
// the selected part's (Result.partial): a PASS of one test must not read
// as the project's.
func partialBanner(res *glv1.Result, b banner) banner {
	p := res.GetPartial()
	if p == nil || b.Class == bannerError {
		return b
	}
	b.Title = "Partial run · " + b.Title
	var what []string
	if len(p.GetSteps()) > 0 {
		what = append(what, "steps "+strings.Join(p.GetSteps(), ", "))
	}
	if len(p.GetTests()) > 0 {
		what = append(what, "tests "+strings.Join(p.GetTests(), ", "))
	}
	b.Detail = append([]string{"Only the selected " + strings.Join(what, " and ") + " ran: this verdict is not the whole project's."}, b.Detail...)
	return b
}

// passBanner confirms execution, or refuses to when the evidence is missing.
func passBanner(run *glv1.Run) banner {
	res := run.GetResult()
	ran, optionalFailed := 0, []string{}
	for _, s := range res.GetSteps() {
		if !executed(s) {
			continue
		}
		if s.GetStatus() != glv1.StepStatus_STEP_STATUS_OK || s.GetExitCode() != 0 {
			if s.GetOptional() {
				optionalFailed = append(optionalFailed, fmt.Sprintf("%s (exit code %d)", s.GetName(), s.GetExitCode()))
				continue
			}
			return banner{Class: bannerError, Title: "Inconsistent result: PASS recorded, but a required step did not succeed",
				Detail: []string{fmt.Sprintf("Step %s (%s) ended %s with exit code %d. Treat this run as not verified.",
					s.GetName(), display.Brief(s), stepStatusName(s.GetStatus()), s.GetExitCode())}}
		}
		ran++
	}
	if ran == 0 {
		return banner{Class: bannerError, Title: "Not verified: PASS recorded without any executed step",
			Detail: []string{"Execution is the source of truth; no command ran, so nothing is confirmed."}}
	}
	b := banner{Class: bannerPass,
		Title: fmt.Sprintf("Execution passed: %s in a real sandbox, exit codes 0", plural(ran, "step ran", "steps ran"))}
	var facts []string
	if img := res.GetManifest().GetPlatform().GetContainerImage(); img != "" {
		facts = append(facts, "sandbox image "+img)
	}
	if l := res.GetLevel(); l != glv1.Level_LEVEL_UNSPECIFIED {
		facts = append(facts, fmt.Sprintf("level %s (%s)", levelName(l), levelMeaning(l)))
	}
	if sc := res.GetScore(); sc != nil {
		facts = append(facts, "score "+formatScore(sc.GetTotal())+"/10")
	}
	if len(facts) > 0 {
		b.Detail = append(b.Detail, strings.Join(facts, " · "))
	}
	if len(optionalFailed) > 0 {
		b.Detail = append(b.Detail, "Optional (informational) steps failed: "+strings.Join(optionalFailed, ", "))
	}
	return b
}

// failBanner names the failing step, its command and exit code.
func failBanner(res *glv1.Result) banner {
	b := banner{Class: bannerFail}
	if s := firstFailure(res.GetSteps()); s != nil {
		b.Title = "Execution failed: " + failedStepSentence(s)
	} else {
		b.Title = "Execution failed: " + firstNonEmpty(res.GetSummary(), "the required checks did not pass")
	}
	if c := res.GetCounts(); c.GetFailed()+c.GetErrors() > 0 {
		b.Detail = append(b.Detail, fmt.Sprintf("%d of %d tests failed.", c.GetFailed()+c.GetErrors(), c.GetTotal()))
	}
	if s := res.GetSummary(); s != "" {
		b.Detail = append(b.Detail, s)
	}
	return b
}

// failedStepSentence says how step s failed, with command and workdir.
func failedStepSentence(s *glv1.StepResult) string {
	where := fmt.Sprintf("step %s (%s", s.GetName(), display.Brief(s))
	if wd := s.GetWorkdir(); wd != "" && wd != "." {
		where += " in " + wd
	}
	where += ")"
	switch s.GetStatus() {
	case glv1.StepStatus_STEP_STATUS_TIMED_OUT:
		return where + " timed out after " + formatProtoDuration(s.GetDuration())
	case glv1.StepStatus_STEP_STATUS_OOM_KILLED:
		return fmt.Sprintf("%s was killed: out of memory (exit code %d)", where, s.GetExitCode())
	case glv1.StepStatus_STEP_STATUS_ERROR:
		return where + " could not be run: " + firstNonEmpty(s.GetReason(), "infrastructure error")
	case glv1.StepStatus_STEP_STATUS_CANCELED:
		return where + " was canceled"
	}
	return fmt.Sprintf("%s exited with code %d", where, s.GetExitCode())
}

// firstFailure is the first required step that ran and did not succeed.
func firstFailure(steps []*glv1.StepResult) *glv1.StepResult {
	for _, s := range steps {
		if executed(s) && !s.GetOptional() && (s.GetStatus() != glv1.StepStatus_STEP_STATUS_OK || s.GetExitCode() != 0) {
			return s
		}
	}
	return nil
}

// executed reports whether a step was attempted (not skipped or unknown).
func executed(s *glv1.StepResult) bool {
	switch s.GetStatus() {
	case glv1.StepStatus_STEP_STATUS_SKIPPED, glv1.StepStatus_STEP_STATUS_UNSPECIFIED:
		return false
	}
	return true
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}
