package web

import (
	"fmt"
	"html/template"
	"net/url"
	"strconv"
	"strings"

	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// reportView is everything the report template shows; templates only
// print fields, decisions are made here.
type reportView struct {
	Facts    factsView
	Banner   banner
	Live     bool
	URLs     runURLs
	Patches  []patchView
	Steps    []stepView
	Counts   *countsView
	Failures []failureView
	// FirstFailure is the failure the banner of a FAIL shows, so it is on
	// the first screen at 1280×800 and on a phone (nil otherwise).
	FirstFailure *failureView
	Score        *scoreView
	Metrics      *metricsView
	// StopMemo is the memo's Markdown, rendered and sanitized.
	StopMemo template.HTML
	Kind     string
	// Rounds compare a fix run's baseline, rounds and final state.
	Rounds []roundView
	// Review is the reviewer's report (model opinion), nil without one.
	Review *reviewView
	// Plan is the plan document's commands (verify --plan), nil without one.
	Plan []planCommandView
	// Coverage is what the test steps measured, nil when nothing was.
	Coverage *coverageView
	// Security is the security phase's findings, nil when no scan ran.
	Security *securityView
}

// runURLs are the links of one run's pages.
type runURLs struct {
	Report, Summary, Events, Result, Runs string
}

func urlsFor(id string) runURLs {
	base := "/runs/" + url.PathEscape(id)
	return runURLs{Report: base, Summary: base + "/summary", Events: base + "/events", Result: base + "/result.json", Runs: "/"}
}

func logURL(id, step string) string {
	return "/runs/" + url.PathEscape(id) + "/logs/" + url.PathEscape(step)
}

// factsView is the run's key facts.
type factsView struct {
	ID, Kind, Status, StatusClass   string
	Created, Finished, Duration     string
	Snapshot, Source, Image, Commit string
	Platform, Level, LevelMeaning   string
	Summary                         string
}

type stepView struct {
	Index int
	// Command is the brief form of the step's display; FullCommand the
	// command that ran when Command is not it (a generated script cut to
	// its first words, or shown by its display): the cell expands to it,
	// and the log page shows it too.
	Name, Phase, Command, FullCommand, Workdir string
	ExitCode, Duration, Status, StClass        string
	CacheHit, Optional, Truncated              bool
	Tests, LogURL, Reason, Level               string
}

type patchView struct {
	Attempt         int32
	State, StClass  string
	Reason          string
	Files           string
	Added, Removed  int32
	Lines           []diffLine
	Truncated, Open bool
	// Transitions is the patched verification against the baseline.
	Transitions string
}

// transitionView is one test's change against the baseline.
type transitionView struct {
	Kind, KindClass, Step, ID, Before, After string
	Target                                   bool
}

type countsView struct {
	Passed, Failed, Skipped, Errors, Total, Flaky int32
	Format                                        string
}

type failureView struct {
	Location, Kind, Test, Message, Evidence string
	// LocURL opens Location in the code view ("" when it cannot).
	LocURL string
}

type scoreView struct {
	Total, Build, Tests, Lint, NoCritical string
	Rule, DecidedBy, Level                string
}

type metricsView struct {
	Green                                     bool
	Rounds, AttemptsToGreen, Rollbacks, Lines int32
	TimeToGreen, StopReason                   string
	// Transitions summarizes the final state against the baseline; Changes
	// lists every test that moved (targets first), Omitted how many more.
	Transitions string
	Resolution  string
	Changes     []transitionView
	Omitted     int32
}

// newReportView builds the report of run; vs are its verifications (a
// fix run's baseline and rounds), nil when unknown.
func newReportView(run *glv1.Run, vs []*verificationRecord) reportView {
	res := run.GetResult()
	v := reportView{
		Facts:  newFacts(run),
		Banner: newBanner(run),
		Live:   isLive(run.GetStatus()),
		URLs:   urlsFor(run.GetId()),
		Kind:   runKindName(run.GetKind()),
		Rounds: newRoundViews(run, vs),
	}
	v.Review = newReviewView(res.GetReview())
	v.Plan = newPlanViews(res.GetPlan())
	v.Coverage = newCoverageView(res.GetCoverage())
	if memo := res.GetStopMemo(); memo != "" {
		v.StopMemo = renderMarkdown(memo)
	}
	for _, p := range run.GetPatches() {
		v.Patches = append(v.Patches, newPatchView(p))
	}
	for i, s := range res.GetSteps() {
		v.Steps = append(v.Steps, newStepView(run.GetId(), i, s))
	}
	if c := res.GetCounts(); c != nil && c.GetTotal() > 0 {
		v.Counts = &countsView{Passed: c.GetPassed(), Failed: c.GetFailed(), Skipped: c.GetSkipped(), Errors: c.GetErrors(),
			Total: c.GetTotal(), Flaky: c.GetFlaky(), Format: c.GetFormat()}
	}
	final := firstDigest(run.GetCurrentSnapshot(), run.GetSnapshot())
	v.Security = newSecurityView(run.GetId(), final, res)
	for _, f := range res.GetFailures() {
		v.Failures = append(v.Failures, newFailureView(run.GetId(), final, f))
	}
	if v.Banner.Class == bannerFail {
		v.FirstFailure = firstLocated(v.Failures)
	}
	// An ERROR verified nothing (or not enough): a number would read as a
	// judgement of the code, so it shows no score, whatever was stored.
	if sc := res.GetScore(); sc != nil && res.GetStatus() != glv1.Verdict_VERDICT_ERROR {
		v.Score = &scoreView{Total: formatScore(sc.GetTotal()), Build: formatScore(sc.GetBuild()), Tests: formatScore(sc.GetTests()),
			Lint: formatScore(sc.GetLint()), NoCritical: formatScore(sc.GetNoCritical()), Rule: sc.GetRule(),
			DecidedBy: strings.ToLower(display.EnumOr(sc.GetDecidedBy(), "—")), Level: levelName(sc.GetLevel())}
	}
	if m := run.GetMetrics(); m != nil {
		v.Metrics = &metricsView{Green: m.GetGreen(), Rounds: m.GetRounds(), AttemptsToGreen: m.GetAttemptsToGreen(),
			Rollbacks: m.GetRollbacks(), Lines: m.GetPatchLines(), TimeToGreen: formatProtoDuration(m.GetTimeToGreen()),
			StopReason: m.GetStopReason()}
		if tr := m.GetTransitions(); tr != nil {
			v.Metrics.Transitions, v.Metrics.Resolution = display.Transitions(tr), display.Resolution(tr.GetResolution())
			v.Metrics.Changes, v.Metrics.Omitted = transitionViews(tr.GetChanges()), tr.GetChangesOmitted()
		}
	}
	return v
}

// transitionViews renders the listed transitions.
func transitionViews(cs []*glv1.TestTransition) []transitionView {
	out := make([]transitionView, 0, len(cs))
	for _, c := range cs {
		kind := display.TransitionKind(c.GetKind())
		class := "warn"
		switch c.GetKind() {
		case glv1.TransitionKind_TRANSITION_KIND_FAIL_TO_PASS:
			class = "ok"
		case glv1.TransitionKind_TRANSITION_KIND_PASS_TO_FAIL, glv1.TransitionKind_TRANSITION_KIND_DISAPPEARED:
			class = "bad"
		}
		out = append(out, transitionView{Kind: kind, KindClass: class, Step: c.GetStep(), ID: c.GetId(),
			Before: testStatusName(c.GetBefore()), After: testStatusName(c.GetAfter()), Target: c.GetTarget()})
	}
	return out
}

// testStatusName is "passed", "failed", ... or "—" when the test did not run.
func testStatusName(s glv1.TestStatus) string {
	if s == glv1.TestStatus_TEST_STATUS_UNSPECIFIED {
		return "—"
	}
	return strings.ToLower(display.EnumOr(s, "—"))
}

func isLive(s glv1.RunStatus) bool {
	return s == glv1.RunStatus_RUN_STATUS_PENDING || s == glv1.RunStatus_RUN_STATUS_RUNNING
}

func newFacts(run *glv1.Run) factsView {
	res := run.GetResult()
	status := runStatusName(run.GetStatus())
	f := factsView{
		ID: run.GetId(), Kind: runKindName(run.GetKind()), Status: status, StatusClass: statusClass(status),
		Created: formatTime(run.GetCreatedAt()), Finished: formatTime(run.GetFinishedAt()),
		Duration: span(firstTime(run), run.GetFinishedAt()), Snapshot: shortDigest(run.GetSnapshot()),
		Source: run.GetSourceDir(), Commit: res.GetManifest().GetCommitSha(), Summary: res.GetSummary(),
		Image: res.GetManifest().GetPlatform().GetContainerImage(),
	}
	if p := res.GetManifest().GetPlatform(); p.GetOs() != "" {
		f.Platform = p.GetOs() + "/" + p.GetArch()
		if p.GetEngineVersion() != "" {
			f.Platform += " · engine " + p.GetEngineVersion()
		}
	}
	if l := res.GetLevel(); l != glv1.Level_LEVEL_UNSPECIFIED {
		f.Level, f.LevelMeaning = levelName(l), levelMeaning(l)
	}
	return f
}

func firstTime(run *glv1.Run) *timestamppb.Timestamp {
	if run.GetStartedAt() != nil {
		return run.GetStartedAt()
	}
	return run.GetCreatedAt()
}

func newStepView(runID string, i int, s *glv1.StepResult) stepView {
	st := stepStatusName(s.GetStatus())
	v := stepView{
		Index: i + 1, Name: s.GetName(), Phase: phaseName(s.GetPhase()), Command: display.Brief(s),
		Workdir: firstNonEmpty(s.GetWorkdir(), "."), Duration: formatProtoDuration(s.GetDuration()),
		Status: st, StClass: statusClass(st), CacheHit: s.GetCacheHit(), Optional: s.GetOptional(),
		Truncated: s.GetTruncated(), Reason: s.GetReason(), ExitCode: "—",
	}
	if full := s.GetCommand(); full != v.Command {
		v.FullCommand = full
	}
	if executed(s) && s.GetStatus() != glv1.StepStatus_STEP_STATUS_ERROR {
		v.ExitCode = strconv.Itoa(int(s.GetExitCode()))
	}
	if l := s.GetLevel(); l != glv1.Level_LEVEL_UNSPECIFIED {
		v.Level = levelName(l)
	}
	if c := s.GetCounts(); c.GetTotal() > 0 || c.GetIncomplete() {
		v.Tests = fmt.Sprintf("%d passed, %d failed", c.GetPassed(), c.GetFailed()+c.GetErrors())
		if c.GetSkipped() > 0 {
			v.Tests += fmt.Sprintf(", %d skipped", c.GetSkipped())
		}
		if c.GetIncomplete() {
			v.Tests += ", INCOMPLETE: " + c.GetIncompleteReason()
		}
	}
	if s.GetLogDigest().GetHash() != "" || s.GetTail() != "" {
		v.LogURL = logURL(runID, s.GetName())
	}
	return v
}

func newPatchView(p *glv1.PatchOutcome) patchView {
	v := patchView{Attempt: p.GetAttempt(), Reason: p.GetReason(), Files: strings.Join(p.GetFiles(), ", "),
		Added: p.GetLinesAdded(), Removed: p.GetLinesRemoved()}
	switch {
	case p.GetApplied() && !p.GetRolledBack():
		v.State, v.StClass, v.Open = "applied", "ok", true
	case p.GetRolledBack():
		v.State, v.StClass = "rolled back", "warn"
	default:
		v.State, v.StClass = "refused", "bad"
	}
	v.Lines, v.Truncated = diffLines(p.GetDiff())
	v.Transitions = display.Transitions(p.GetTransitions())
	return v
}

// firstLocated is the first failure with a location, else the first
// (nil when there is none).
func firstLocated(fs []failureView) *failureView {
	for i := range fs {
		if fs[i].Location != "—" {
			return &fs[i]
		}
	}
	if len(fs) > 0 {
		return &fs[0]
	}
	return nil
}

// newFailureView shows f, its file:line linked into snapshot snap.
func newFailureView(runID string, snap *glv1.Digest, f *glv1.Failure) failureView {
	v := failureView{Kind: failureKindName(f.GetKind()), Test: f.GetTest(), Message: f.GetMessage(), Location: f.GetFile(),
		LocURL: codeURL(runID, snap, f.GetFile(), f.GetLine())}
	if v.Location == "" {
		v.Location = "—"
	} else if f.GetLine() > 0 {
		v.Location += ":" + strconv.Itoa(int(f.GetLine()))
		if f.GetColumn() > 0 {
			v.Location += ":" + strconv.Itoa(int(f.GetColumn()))
		}
	}
	if e := f.GetEvidence(); e.GetStep() != "" {
		v.Evidence = fmt.Sprintf("%s: %s → exit %d", e.GetStep(), display.BriefText(e.GetCommand()), e.GetExitCode())
	}
	return v
}
