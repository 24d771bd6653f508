package web

import (
	"fmt"
	"net/url"
	"strconv"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// roundView is one column of a fix run's comparison: the baseline, a
// round (its patch and the patched verification), or the final state.
type roundView struct {
	ID, Title string
	// Verdict is PASS, FAIL, "running" or "not verified".
	Verdict, VerdictClass, Score, Counts, Note string
	Patch                                      *patchBrief
	Steps                                      []roundStep
	Failures                                   []failureView
	Transitions                                string
	Changes                                    []transitionView
	Omitted                                    int32
}

// patchBrief is a round's patch in one line; Anchor links its diff.
type patchBrief struct {
	State, StClass, Files, Reason, Anchor string
	Added, Removed                        int32
}

// roundStep is one step of a verification in a round's column.
type roundStep struct {
	Name, Status, StClass, Exit, LogURL string
}

// newRoundViews lays out a fix run's baseline and rounds from its
// verifications and patches, and the final state last.
func newRoundViews(run *glv1.Run, vs []*verificationRecord) []roundView {
	// Without the event log (an old run, or it could not be read) the
	// report shows the final state alone rather than guess at rounds.
	if run.GetKind() != glv1.RunKind_RUN_KIND_FIX || len(vs) == 0 {
		return nil
	}
	var out []roundView
	if b := recordOf(vs, 0); b != nil {
		rv := verificationColumn(run, b, run.GetSnapshot())
		rv.ID, rv.Title = "round-0", "Baseline"
		if b.Done != nil {
			rv.Note = "The unpatched snapshot: what was broken before any patch."
		}
		out = append(out, rv)
	}
	for _, p := range run.GetPatches() {
		out = append(out, patchColumn(run, p, recordOf(vs, p.GetAttempt())))
	}
	// A round whose verification is under way has no outcome yet.
	if n := int32(len(run.GetPatches())); isLive(run.GetStatus()) {
		if v := recordOf(vs, n+1); v != nil {
			rv := verificationColumn(run, v, nil)
			rv.ID, rv.Title = fmt.Sprintf("round-%d", n+1), fmt.Sprintf("Round %d", n+1)
			out = append(out, rv)
		}
	}
	if f := finalColumn(run); f != nil {
		out = append(out, *f)
	}
	return out
}

// patchColumn is round p.attempt: the patch, then its verification.
func patchColumn(run *glv1.Run, p *glv1.PatchOutcome, v *verificationRecord) roundView {
	pv := newPatchView(p)
	brief := &patchBrief{State: pv.State, StClass: pv.StClass, Files: pv.Files, Reason: p.GetReason(),
		Anchor: "#patch-" + strconv.Itoa(int(p.GetAttempt())), Added: p.GetLinesAdded(), Removed: p.GetLinesRemoved()}
	var rv roundView
	if v != nil {
		rv = verificationColumn(run, v, firstDigest(p.GetSnapshotAfter(), p.GetSnapshotBefore()))
	} else {
		rv = roundView{Verdict: "not verified", VerdictClass: "muted", Note: "The patch was not applied, so nothing ran."}
		if p.GetApplied() {
			rv.Note = "The event log holds no verification of this patch."
		}
	}
	rv.ID, rv.Title, rv.Patch = fmt.Sprintf("round-%d", p.GetAttempt()), fmt.Sprintf("Round %d", p.GetAttempt()), brief
	if tr := p.GetTransitions(); tr != nil {
		rv.Transitions, rv.Changes, rv.Omitted = display.Transitions(tr), transitionViews(tr.GetChanges()), tr.GetChangesOmitted()
	}
	return rv
}

// verificationColumn shows one verification: verdict, counts, steps and
// failures, each file:line linked to snap.
func verificationColumn(run *glv1.Run, v *verificationRecord, snap *glv1.Digest) roundView {
	rv := roundView{Verdict: "running", VerdictClass: "live"}
	if d := v.Done; d != nil {
		rv.Verdict, rv.VerdictClass = "FAIL", "bad"
		if d.GetOk() {
			rv.Verdict, rv.VerdictClass = "PASS", "ok"
		}
		if d.GetScore() != nil {
			rv.Score = formatScore(d.GetScore().GetTotal())
		}
	}
	if c := v.Counts; c.GetTotal() > 0 {
		rv.Counts = fmt.Sprintf("%d passed · %d failed · %d skipped", c.GetPassed(), c.GetFailed()+c.GetErrors(), c.GetSkipped())
	}
	for _, s := range v.Steps {
		sv := newStepView(run.GetId(), 0, s)
		rv.Steps = append(rv.Steps, roundStep{Name: s.GetName(), Status: sv.Status, StClass: sv.StClass, Exit: sv.ExitCode,
			LogURL: attemptLogURL(sv.LogURL, v.Attempt)})
	}
	for _, f := range v.Failures {
		rv.Failures = append(rv.Failures, newFailureView(run.GetId(), snap, f))
	}
	return rv
}

// attemptLogURL points a log link at one verification's step.
func attemptLogURL(u string, attempt int32) string {
	if u == "" {
		return ""
	}
	return u + "?attempt=" + url.QueryEscape(strconv.Itoa(int(attempt)))
}

// finalColumn is where the run ended, against the baseline.
func finalColumn(run *glv1.Run) *roundView {
	if isLive(run.GetStatus()) {
		return nil
	}
	st := runStatusName(run.GetStatus())
	rv := &roundView{ID: "final", Title: "Final state", Verdict: st, VerdictClass: statusClass(st)}
	m := run.GetMetrics()
	switch {
	case m.GetGreen():
		rv.Note = fmt.Sprintf("Green after %s.", plural(int(m.GetAttemptsToGreen()), "round", "rounds"))
	case m.GetStopReason() != "":
		rv.Note = "Stopped: " + m.GetStopReason() + "."
	}
	if c := run.GetResult().GetCounts(); c.GetTotal() > 0 {
		rv.Counts = fmt.Sprintf("%d passed · %d failed · %d skipped", c.GetPassed(), c.GetFailed()+c.GetErrors(), c.GetSkipped())
	}
	if sc := run.GetResult().GetScore(); sc != nil && run.GetResult().GetStatus() != glv1.Verdict_VERDICT_ERROR {
		rv.Score = formatScore(sc.GetTotal())
	}
	// The test-by-test list is the repair section's table.
	rv.Transitions = display.Transitions(m.GetTransitions())
	return rv
}
