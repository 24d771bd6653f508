package contract

import (
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// timeOf renders a timestamp as RFC 3339 UTC, nil when unset.
func timeOf(t *timestamppb.Timestamp) *string {
	if t == nil {
		return nil
	}
	s := t.AsTime().UTC().Format(time.RFC3339Nano)
	return &s
}

// msOf is a duration in whole milliseconds (0 when unset).
func msOf(d *durationpb.Duration) int64 {
	if d == nil {
		return 0
	}
	return d.AsDuration().Milliseconds()
}

// digestOf converts a digest, nil when unset or empty.
func digestOf(d *glv1.Digest) *Digest {
	if d == nil || d.GetHash() == "" {
		return nil
	}
	return &Digest{Hash: d.GetHash(), SizeBytes: d.GetSizeBytes()}
}

// list is s, or an empty (never null) list.
func list[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// mapList converts every element of in.
func mapList[In, Out any](in []In, f func(In) Out) []Out {
	out := make([]Out, 0, len(in))
	for _, v := range in {
		out = append(out, f(v))
	}
	return out
}

// ManifestOf renders a run manifest (manifest.json and a result's
// "manifest" are this one shape); nil for nil.
func ManifestOf(m *glv1.Manifest) *Manifest {
	if m == nil {
		return nil
	}
	p := m.GetPlatform()
	return &Manifest{
		RunID: m.GetRunId(), TimestampStart: timeOf(m.GetTimestampStart()), TimestampEnd: timeOf(m.GetTimestampEnd()),
		CommitSHA: m.GetCommitSha(), Snapshot: digestOf(m.GetSnapshot()),
		CommandsExecuted: mapList(m.GetCommandsExecuted(), commandOf),
		Platform: Platform{OS: p.GetOs(), Arch: p.GetArch(), ContainerImage: p.GetContainerImage(),
			ImageDigest: p.GetImageDigest(), EngineVersion: p.GetEngineVersion(), Executor: p.GetExecutor()},
		Limits: limitsOf(m.GetLimits()),
	}
}

func commandOf(c *glv1.CommandRecord) CommandRecord {
	return CommandRecord{Name: c.GetName(), Command: c.GetCommand(), Workdir: c.GetWorkdir(),
		ExitCode: c.GetExitCode(), DurationMS: c.GetDurationMs(), Status: StepStatus(c.GetStatus())}
}

func limitsOf(l *glv1.Limits) Limits {
	return Limits{CPUs: l.GetCpus(), MemoryBytes: l.GetMemoryBytes(), Pids: l.GetPids(), TmpfsBytes: l.GetTmpfsBytes(),
		WorkspaceBytes: l.GetWorkspaceBytes(), LogBytesPerStep: l.GetLogBytesPerStep(), RunTimeoutMS: msOf(l.GetRunTimeout())}
}

func scoreOf(s *glv1.Score) *Score {
	if s == nil {
		return nil
	}
	out := &Score{Total: s.GetTotal(), Build: s.GetBuild(), Tests: s.GetTests(), Lint: s.GetLint(),
		NoCritical: s.GetNoCritical(), DecidedBy: ScoreSource(s.GetDecidedBy()), Rule: s.GetRule(), LintIssues: s.GetLintIssues()}
	if s.GetHasModelScore() {
		m := s.GetModelScore()
		out.ModelScore = &m
	}
	if s.GetSecurityRan() {
		sec := s.GetSecurity()
		out.Security, out.SecurityFindings = &sec, s.GetSecurityFindings()
	}
	if s.GetCoverageMeasured() {
		c := s.GetCoverage()
		out.Coverage = &c
	}
	return out
}

func countsOf(c *glv1.TestCounts) Counts {
	return Counts{Passed: c.GetPassed(), Failed: c.GetFailed(), Skipped: c.GetSkipped(), Errors: c.GetErrors(),
		Total: c.GetTotal(), Flaky: c.GetFlaky(), Format: c.GetFormat(), Omitted: c.GetOmitted(),
		Incomplete: c.GetIncomplete(), IncompleteReason: c.GetIncompleteReason()}
}

func stepOf(s *glv1.StepResult) Step {
	var counts *Counts
	if s.GetCounts() != nil {
		c := countsOf(s.GetCounts())
		counts = &c
	}
	display := s.GetDisplayCommand()
	if display == "" {
		display = s.GetCommand()
	}
	return Step{Name: s.GetName(), Phase: Phase(s.GetPhase()), Command: s.GetCommand(), DisplayCommand: display,
		Workdir: s.GetWorkdir(), Status: StepStatus(s.GetStatus()), ExitCode: s.GetExitCode(),
		StartedAt: timeOf(s.GetStartedAt()), FinishedAt: timeOf(s.GetFinishedAt()), DurationMS: msOf(s.GetDuration()),
		Reason: s.GetReason(), Tier: Tier(s.GetTier()), Level: Level(s.GetLevel()), Image: s.GetImage(),
		Optional: s.GetOptional(), CacheHit: s.GetCacheHit(), CacheNote: s.GetCacheNote(), Truncated: s.GetTruncated(),
		OutputBytes: s.GetOutputBytes(), LintIssues: s.GetLintIssues(), Counts: counts,
		Log: digestOf(s.GetLogDigest()), Tail: s.GetTail(), Rule: s.GetRule(), Source: sourceOf(s.GetSource())}
}

func sourceOf(s *glv1.CommandSource) *CommandSource {
	if s == nil {
		return nil
	}
	return &CommandSource{Origin: s.GetOrigin(), File: s.GetFile(), Key: s.GetKey(), Line: s.GetLine()}
}

func testOf(t *glv1.TestCase) Test {
	return Test{ID: t.GetId(), Step: t.GetStep(), Suite: t.GetSuite(), Name: t.GetName(), Status: TestStatus(t.GetStatus()),
		DurationMS: msOf(t.GetDuration()), Message: t.GetMessage(), File: t.GetFile(), Line: t.GetLine(), Flaky: t.GetFlaky()}
}

func inventoryOf(i *glv1.TestInventory) *Inventory {
	if i == nil || i.GetBlob() == nil {
		return nil
	}
	return &Inventory{Blob: *digestOf(i.GetBlob()), Tests: i.GetTests(), Complete: i.GetComplete()}
}

func failureOf(f *glv1.Failure) Failure {
	var ev *Evidence
	if e := f.GetEvidence(); e != nil {
		ev = &Evidence{Step: e.GetStep(), Command: e.GetCommand(), Workdir: e.GetWorkdir(), ExitCode: e.GetExitCode(),
			LogOffset: e.GetLogOffset(), Log: digestOf(e.GetLogDigest())}
	}
	return Failure{Kind: FailureKind(f.GetKind()), Test: f.GetTest(), Message: f.GetMessage(), File: f.GetFile(),
		Line: f.GetLine(), Column: f.GetColumn(), Flaky: f.GetFlaky(), Frames: mapList(f.GetFrames(), frameOf), Evidence: ev,
		Rule: f.GetRule(), Severity: f.GetSeverity(), Introduced: f.GetIntroduced()}
}

func frameOf(f *glv1.Frame) Frame {
	return Frame{File: f.GetFile(), Line: f.GetLine(), Column: f.GetColumn(), Function: f.GetFunction(), Project: f.GetProject()}
}

// partialOf is nil for a full verification.
func partialOf(p *glv1.Partial) *Partial {
	if p == nil {
		return nil
	}
	return &Partial{Steps: list(p.GetSteps()), Tests: list(p.GetTests())}
}

func tierOf(t *glv1.TierSelection) TierSelection {
	return TierSelection{Tier: Tier(t.GetTier()), Selected: t.GetSelected(), Reasons: list(t.GetReasons())}
}
