package web

import (
	"fmt"
	"strconv"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// Payloads of the page's event stream; report.js reads them.
type (
	stepEvent struct {
		Index   int32  `json:"index"`
		Name    string `json:"name"`
		Command string `json:"command"`
		Phase   string `json:"phase"`
	}
	logEvent struct {
		Index int32  `json:"index"`
		Step  string `json:"step"`
		Data  string `json:"data"`
	}
	stepDoneEvent struct {
		Index    int32  `json:"index"`
		Name     string `json:"name"`
		Status   string `json:"status"`
		Class    string `json:"class"`
		ExitCode string `json:"exit_code"`
		Duration string `json:"duration"`
		CacheHit bool   `json:"cache_hit"`
	}
	noteEvent struct {
		Text string `json:"text"`
	}
	// verificationEvent starts a verification: a fix run's baseline
	// (attempt 0) or round N's, a verify run's only one.
	verificationEvent struct {
		Attempt int32  `json:"attempt"`
		Text    string `json:"text"`
	}
	finishedEvent struct {
		Status string `json:"status"`
		Class  string `json:"class"`
	}
)

// pageEvent converts a run event into the page's event name and payload;
// "" for events the page does not show (ResumeFrom ends the stream and the
// browser reconnects with Last-Event-ID).
func pageEvent(ev *glv1.RunEvent) (string, any) {
	switch k := ev.GetKind().(type) {
	case *glv1.RunEvent_StepStarted:
		s := k.StepStarted.GetStep()
		return "step", stepEvent{Index: k.StepStarted.GetIndex(), Name: s.GetName(), Command: display.Brief(s), Phase: phaseName(s.GetPhase())}
	case *glv1.RunEvent_LogChunk:
		c := k.LogChunk
		return "log", logEvent{Index: c.GetIndex(), Step: c.GetStep(), Data: c.GetData()}
	case *glv1.RunEvent_StepFinished:
		return "step_done", stepDone(k.StepFinished)
	case *glv1.RunEvent_RunFinished:
		st := runStatusName(k.RunFinished.GetStatus())
		return "finished", finishedEvent{Status: st, Class: statusClass(st)}
	case *glv1.RunEvent_DiscoveryDone:
		return "verification", verificationEvent{Attempt: k.DiscoveryDone.GetAttempt(), Text: noteText(ev)}
	case *glv1.RunEvent_ResumeFrom:
		return "", nil
	}
	if text := noteText(ev); text != "" {
		return "note", noteEvent{Text: text}
	}
	return "", nil
}

func stepDone(f *glv1.StepFinished) stepDoneEvent {
	r := f.GetResult()
	st := stepStatusName(r.GetStatus())
	exit := "—"
	if executed(r) && r.GetStatus() != glv1.StepStatus_STEP_STATUS_ERROR {
		exit = strconv.Itoa(int(r.GetExitCode()))
	}
	return stepDoneEvent{Index: f.GetIndex(), Name: r.GetName(), Status: st, Class: statusClass(st), ExitCode: exit,
		Duration: formatProtoDuration(r.GetDuration()), CacheHit: r.GetCacheHit()}
}

// noteText is a one-line account of the run's other events.
func noteText(ev *glv1.RunEvent) string {
	switch k := ev.GetKind().(type) {
	case *glv1.RunEvent_RunCreated:
		return "Run created"
	case *glv1.RunEvent_DiscoveryDone:
		p := k.DiscoveryDone.GetPipeline()
		return fmt.Sprintf("Pipeline planned: %s (%s, image %s)", plural(len(p.GetSteps()), "step", "steps"), p.GetRuntime(), p.GetImage())
	case *glv1.RunEvent_TestsParsed:
		c := k.TestsParsed.GetCounts()
		return fmt.Sprintf("%s: %d passed, %d failed, %d skipped", k.TestsParsed.GetStep(), c.GetPassed(), c.GetFailed()+c.GetErrors(), c.GetSkipped())
	case *glv1.RunEvent_Score:
		return fmt.Sprintf("Score %s/10 (%s)", formatScore(k.Score.GetTotal()), levelName(k.Score.GetLevel()))
	case *glv1.RunEvent_VerificationDone:
		d := k.VerificationDone
		verdict := "passed"
		if !d.GetOk() {
			verdict = "failed: " + d.GetFailedCommand()
		}
		return fmt.Sprintf("Verification attempt %d %s", d.GetAttempt(), verdict)
	case *glv1.RunEvent_VerifyFailedRetry:
		d := k.VerifyFailedRetry
		return fmt.Sprintf("Attempt %d of %d failed (%s); retrying", d.GetAttempt(), d.GetMaxAttempts(), d.GetFailedCommand())
	case *glv1.RunEvent_VerifyFailedMaxRetries:
		return "Gave up after " + plural(int(k.VerifyFailedMaxRetries.GetAttempts()), "attempt", "attempts")
	case *glv1.RunEvent_TierSkipped:
		return fmt.Sprintf("Tier %s skipped: %s", display.EnumOr(k.TierSkipped.GetTier(), "—"), k.TierSkipped.GetReason())
	case *glv1.RunEvent_LogCapped:
		c := k.LogCapped
		return fmt.Sprintf("Live output of %s capped at %d bytes; the step's full log link has the rest", c.GetStep(), c.GetStoredBytes())
	case *glv1.RunEvent_Queued:
		return fmt.Sprintf("Queued: position %d (all %d sandboxes in use)", k.Queued.GetPosition(), k.Queued.GetCapacity())
	case *glv1.RunEvent_ExecutorRetry:
		x := k.ExecutorRetry
		return fmt.Sprintf("Executor %s failed (%s); running again on another executor", x.GetFailedExecutor(), x.GetReason())
	case *glv1.RunEvent_PatchReplyRefused:
		return fmt.Sprintf("Patch reply for attempt %d refused: %s", k.PatchReplyRefused.GetAttempt(), k.PatchReplyRefused.GetReason())
	case *glv1.RunEvent_RoundStarted:
		return fmt.Sprintf("Repair round %d started", k.RoundStarted.GetRound())
	case *glv1.RunEvent_PatchRequested:
		return fmt.Sprintf("Patch requested (attempt %d)", k.PatchRequested.GetRequest().GetAttempt())
	case *glv1.RunEvent_PatchEvaluated:
		p := newPatchView(k.PatchEvaluated.GetOutcome())
		return fmt.Sprintf("Patch attempt %d %s (+%d −%d)", p.Attempt, p.State, p.Added, p.Removed)
	}
	return ""
}
