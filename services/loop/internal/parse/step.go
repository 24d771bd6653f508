package parse

import (
	"context"
	"io"
	"io/fs"
	"sort"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Input is one executed step to parse.
type Input struct {
	// Step is the planned step (phase, command, workdir); may be nil when
	// Result carries the same fields.
	Step *glv1.Step
	// Result is what the executor reported (status, exit code, digest).
	Result *glv1.StepResult
	// Log is the step's full (capped) combined output; nil means empty.
	Log io.Reader
	// Artifacts are machine-readable reports the step wrote, by path
	// relative to the workspace root: JUnit XML (pytest --junitxml, Surefire
	// TEST-*.xml), jest/vitest/mocha JSON. Preferred over the log.
	Artifacts map[string]io.Reader
	// Files reads the snapshot (optional): resolves Go package paths, Java
	// classes and checks that located files exist.
	Files fs.FS
	// Root is the workspace root inside the sandbox; "" means /workspace.
	Root string
	// Limits bound memory; zero fields take DefaultLimits.
	Limits Limits
}

// StepReport is everything parsed from one step.
type StepReport struct {
	Step    string
	Phase   glv1.Phase
	Level   glv1.Level
	Status  glv1.StepStatus
	Workdir string
	// Format is the test format that produced Tests and Counts, or
	// FormatUnparsed when no test output was recognized.
	Format string
	// HasTests is true when a test runner's report was recognized (even one
	// that ran zero tests).
	HasTests     bool
	Tests        []Test
	Counts       Counts
	TestsOmitted int
	// Inventory lists every test counted (id and outcome), beyond the
	// records kept in Tests; InventoryComplete says it names every test
	// the counts count.
	Inventory         []Outcome
	InventoryComplete bool
	// LintFormat names the diagnostics tool recognized ("" when none).
	LintFormat string
	// HasLint is true when diagnostics or a lint/typecheck summary were seen.
	HasLint bool
	// LintIssues counts lint/typecheck issues (the tool's summary when printed).
	LintIssues int
	Failures   []Failure
	// FailuresOmitted counts failures beyond Limits.MaxFailures.
	FailuresOmitted int
	// Evidence is the step-level evidence every failure points into.
	Evidence *glv1.Evidence
	// LogBytes is how much of the log was read.
	LogBytes int64
	// ArtifactErrors lists artifacts that could not be read (not fatal).
	ArtifactErrors []string
	// PassedOnRerun is set by MarkFlaky when every failure was a flaky test.
	PassedOnRerun bool
	// Incomplete is set when the counts of a test step may miss tests:
	// its log was cut at the per-step cap and no report file was parsed,
	// or a test binary died before its remaining tests ran.
	Incomplete bool
	// IncompleteReason says why the counts are incomplete.
	IncompleteReason string
	// MissingTools are build tools (compilers, build systems,
	// interpreters) the log says were not found: the step ran in an image
	// without them.
	MissingTools []string
	// SecurityFormat names the security scanner output recognized ("" when
	// none); SecurityFindings counts its findings (beyond those kept).
	SecurityFormat   string
	SecurityFindings int
	// Disagreement says how two accounts of the same run (the runner's
	// report file and its printed summary) disagree on failures; "" when
	// they agree. A step with one cannot pass.
	Disagreement string

	reason string
}

// candidate is one parser's test result competing to describe the step.
type candidate struct {
	format string
	rank   int
	set    *testSet
	extra  []Failure
	// report is true for a machine-readable report file, which the
	// per-step log cap never cuts.
	report bool
}

// Step parses one step. It never fails on unknown or garbage output: that
// yields Format "unparsed" with the step status still deciding pass/fail.
// Errors are returned only for a failing reader or a canceled context.
func Step(ctx context.Context, in Input) (*StepReport, error) {
	lim := in.Limits.withDefaults()
	rep := newReport(in)
	paths := NewPaths(in.Root, rep.Workdir, in.Files)

	cands := artifactCandidates(in.Artifacts, &lim, paths, rep)
	ps := newLogParsers(&lim, paths, rep.Phase)
	n, err := ps.scan(ctx, in.Log)
	rep.LogBytes = n
	if err != nil {
		return nil, err
	}
	// A log cut at the size cap ends mid-stream without any test dying:
	// the tests running at the cut are not unfinished.
	ps.gojson.streamEnded(rep.stepFailed() && !in.Result.GetTruncated())
	cands = append(cands, ps.candidates()...)
	if rep.stepFailed() {
		cands = append(cands, ps.gitdiff.candidate())
		if rep.Phase == glv1.Phase_PHASE_TEST && ps.diag.errors == 0 {
			cands = append(cands, ps.make.candidate())
		}
	}
	best := choose(cands)
	if !in.Result.GetTruncated() {
		best = logTwin(cands, best)
	}
	rep.Disagreement = disagreement(cands, best)
	rep.MissingTools = ps.missing.names()
	if best != nil {
		rep.Format, rep.HasTests = best.format, true
		rep.Counts = best.set.final()
		rep.Tests = best.set.records()
		rep.TestsOmitted = best.set.omitted
		rep.Inventory, rep.InventoryComplete = inventoryOf(best.set)
		if rep.Counts.Flaky == 0 {
			rep.Counts.Flaky = best.set.counts.Flaky
		}
		if rep.Counts.Unfinished == 0 {
			rep.Counts.Unfinished = best.set.counts.Unfinished
		}
	}
	rep.lint(ps.diag)
	rep.failures(best, ps, &lim)
	rep.markIncomplete(in.Result, best, ps)
	rep.markCutShort(best)
	return rep, nil
}

// markCutShort flags the counts of a failed test step whose runner's
// output shows it stopped before its end (testSet.cutShort), when nothing
// else already explained them.
func (rep *StepReport) markCutShort(best *candidate) {
	if rep.Incomplete || best == nil || best.set.cutShort == "" || !rep.stepFailed() {
		return
	}
	if rep.Phase != glv1.Phase_PHASE_TEST && rep.Level != glv1.Level_LEVEL_L4 {
		return
	}
	rep.Incomplete, rep.IncompleteReason = true, best.set.cutShort
}

func newReport(in Input) *StepReport {
	rep := &StepReport{Format: FormatUnparsed}
	if s := in.Step; s != nil {
		rep.Step, rep.Phase, rep.Level, rep.Workdir = s.GetName(), s.GetPhase(), s.GetLevel(), s.GetWorkdir()
	}
	ev := &glv1.Evidence{Step: rep.Step, Workdir: rep.Workdir}
	if in.Step != nil {
		ev.Command = in.Step.GetCommand()
	}
	if r := in.Result; r != nil {
		if rep.Step == "" {
			rep.Step = r.GetName()
		}
		if rep.Phase == glv1.Phase_PHASE_UNSPECIFIED {
			rep.Phase = r.GetPhase()
		}
		if rep.Level == glv1.Level_LEVEL_UNSPECIFIED {
			rep.Level = r.GetLevel()
		}
		if rep.Workdir == "" {
			rep.Workdir = r.GetWorkdir()
		}
		rep.Status = r.GetStatus()
		rep.reason = r.GetReason()
		ev.Step, ev.Workdir, ev.ExitCode, ev.LogDigest = rep.Step, rep.Workdir, r.GetExitCode(), r.GetLogDigest()
		if ev.Command == "" {
			ev.Command = r.GetCommand()
		}
	}
	rep.Evidence = ev
	return rep
}

// artifactCandidates parses the machine-readable reports.
func artifactCandidates(arts map[string]io.Reader, lim *Limits, paths *Paths, rep *StepReport) []candidate {
	names := make([]string, 0, len(arts))
	for n := range arts {
		names = append(names, n)
	}
	sort.Strings(names)
	junit := &junitReport{set: newTestSet(lim)}
	var out []candidate
	for _, n := range names {
		r := arts[n]
		if r == nil {
			continue
		}
		low := strings.ToLower(n)
		switch {
		case strings.HasSuffix(low, ".jsonl"):
			c, err := parseGoJSONReport(r, n, lim, paths, rep.stepFailed())
			if err != nil {
				rep.ArtifactErrors = append(rep.ArtifactErrors, err.Error())
				continue
			}
			out = append(out, c)
		case strings.HasSuffix(low, ".xml"):
			if err := parseJUnit(r, n, lim, paths, junit); err != nil {
				rep.ArtifactErrors = append(rep.ArtifactErrors, err.Error())
			}
			if junit.format == "" && (strings.Contains(low, "surefire") || strings.HasPrefix(low[strings.LastIndex(low, "/")+1:], "test-")) {
				junit.format = FormatSurefire
			}
		case strings.HasSuffix(low, ".json"):
			res, err := parseJSONReport(r, n, lim, paths)
			if err != nil {
				rep.ArtifactErrors = append(rep.ArtifactErrors, err.Error())
				continue
			}
			out = append(out, candidate{format: res.format, rank: 5, report: true, set: res.set})
		}
	}
	if junit.set.seen {
		if junit.format == "" {
			junit.format = FormatJUnit
		}
		out = append(out, candidate{format: junit.format, rank: 5, report: true, set: junit.set})
	}
	return out
}

// logTwin returns the whole (uncut) log's go test -json candidate instead
// of the report file's when both counted the same: the log then saw every
// event, and its records point at their offsets in the log (evidence a
// report's records lack).
func logTwin(cands []candidate, best *candidate) *candidate {
	if best == nil || !best.report || best.format != FormatGoJSON {
		return best
	}
	for i := range cands {
		c := &cands[i]
		if !c.report && c.format == FormatGoJSON && c.set.final() == best.set.final() {
			return c
		}
	}
	return best
}

// kindOf is the failure kind of a failing record: the parser's decision,
// else a classification of its message.
func kindOf(t Test) glv1.FailureKind {
	if t.kind != glv1.FailureKind_FAILURE_KIND_UNSPECIFIED {
		return t.kind
	}
	return classify(t.Message, "", t.Status)
}

// choose picks the most trustworthy candidate that recognized anything.
func choose(cands []candidate) *candidate {
	var best *candidate
	for i := range cands {
		c := &cands[i]
		if !c.set.seen {
			continue
		}
		if c.set.summary == nil && c.set.counts.Total() == 0 && c.rank < 4 {
			continue // recognized a header but no result
		}
		if best == nil || c.rank > best.rank || (c.rank == best.rank && c.set.final().Total() > best.set.final().Total()) {
			best = c
		}
	}
	return best
}

// lint records the diagnostics summary of lint and typecheck steps.
func (rep *StepReport) lint(d *diagParser) {
	if !d.recognized() {
		return
	}
	rep.HasLint = true
	rep.LintFormat = d.tool
	if isStaticPhase(rep.Phase) {
		rep.LintIssues = d.issues()
	}
}

func isStaticPhase(p glv1.Phase) bool {
	return p == glv1.Phase_PHASE_LINT || p == glv1.Phase_PHASE_TYPECHECK
}

// stepFailed reports whether the step did not succeed.
func (rep *StepReport) stepFailed() bool {
	switch rep.Status {
	case glv1.StepStatus_STEP_STATUS_OK, glv1.StepStatus_STEP_STATUS_SKIPPED, glv1.StepStatus_STEP_STATUS_UNSPECIFIED:
		return rep.Status == glv1.StepStatus_STEP_STATUS_UNSPECIFIED && rep.Evidence.GetExitCode() != 0
	}
	return true
}

// failures assembles the step's failures in order of importance.
func (rep *StepReport) failures(best *candidate, ps *logParsers, lim *Limits) {
	var out []Failure
	switch rep.Status {
	case glv1.StepStatus_STEP_STATUS_TIMED_OUT:
		out = append(out, Failure{Kind: glv1.FailureKind_FAILURE_KIND_TIMEOUT, Message: reasonOr("step timed out", ps, rep), Offset: ps.tailOffset()})
	case glv1.StepStatus_STEP_STATUS_OOM_KILLED:
		out = append(out, Failure{Kind: glv1.FailureKind_FAILURE_KIND_OOM, Message: reasonOr("step was killed: out of memory", ps, rep), Offset: ps.tailOffset()})
	}
	failed := rep.stepFailed()
	if rep.Phase == glv1.Phase_PHASE_INSTALL && failed {
		out = append(out, Failure{Kind: glv1.FailureKind_FAILURE_KIND_INSTALL, Message: ps.errorLines(), Offset: ps.tailOffset()})
	}
	tests := 0
	if best != nil {
		out = append(out, best.extra...)
		for _, t := range best.set.failing {
			out = append(out, Failure{File: t.File, Line: t.Line, Kind: kindOf(t), Message: t.Message, Test: t.ID, Frames: t.Frames, Offset: t.Offset})
			tests++
		}
		rep.FailuresOmitted += max(0, best.set.final().Failed+best.set.final().Errors-len(best.set.failing))
	}
	if sec := ps.security; sec != nil {
		// A scanner's FILE:LINE lines are findings, not compiler
		// diagnostics: only the security parser reads them.
		rep.SecurityFormat, rep.SecurityFindings = sec.format, sec.findings()
		out = append(out, sec.found...)
		rep.FailuresOmitted += sec.omitted
	} else if isStaticPhase(rep.Phase) || failed {
		out = append(out, ps.diag.failures()...)
		rep.FailuresOmitted += ps.diag.omitted
	}
	// Python syntax errors: a failing test that is one (a collection or
	// import error) is moved to the line Python named; a step without
	// failing tests (compileall, an import) reports each one.
	if failed && (ps.pysyntax.locate(out) == 0 && tests == 0) {
		out = append(out, ps.pysyntax.failures()...)
	}
	out = dropBuildFailedTwins(out)
	crashes := ps.crash.found
	// A C test driver already turned each program's signal into that
	// test's failure.
	if best != nil && best.format == FormatCProgram && tests > 0 {
		crashes = nil
	}
	if failed && len(crashes) > 0 && (len(out) == 0 || rep.Evidence.GetExitCode() > 128 || tests > 0 && !hasFrames(out)) {
		out = mergeCrashes(out, crashes)
	}
	if failed && len(out) == 0 {
		out = append(out, Failure{Kind: phaseKind(rep.Phase), Message: ps.unparsedMessage(rep), Offset: ps.tailOffset()})
	}
	if len(out) > lim.MaxFailures {
		rep.FailuresOmitted += len(out) - lim.MaxFailures
		out = out[:lim.MaxFailures]
	}
	rep.Failures = out
}

// dropBuildFailedTwins removes "[build failed]" package records when the
// compile errors themselves were found: they say the same thing with less.
func dropBuildFailedTwins(fs []Failure) []Failure {
	compile := false
	for _, f := range fs {
		if f.Kind == glv1.FailureKind_FAILURE_KIND_COMPILE && f.Test == "" {
			compile = true
		}
	}
	if !compile {
		return fs
	}
	out := fs[:0]
	for _, f := range fs {
		if !strings.HasSuffix(f.Test, " [build failed]") {
			out = append(out, f)
		}
	}
	return out
}

// mergeCrashes adds crash reports, folding one into a test failure that
// reported the same crash without frames (pytest's view of a segfault).
func mergeCrashes(out, crashes []Failure) []Failure {
	for _, c := range crashes {
		merged := false
		for i := range out {
			f := &out[i]
			if len(f.Frames) == 0 && f.Message == c.Message {
				f.Frames, f.Kind = c.Frames, c.Kind
				if c.File != "" {
					f.File, f.Line, f.Column = c.File, c.Line, c.Column
				}
				merged = true
				break
			}
		}
		if !merged {
			out = append(out, c)
		}
	}
	return out
}

func hasFrames(fs []Failure) bool {
	for _, f := range fs {
		if len(f.Frames) > 0 {
			return true
		}
	}
	return false
}

// reasonOr prefers the executor's reason for a timeout or kill.
func reasonOr(def string, _ *logParsers, rep *StepReport) string {
	if rep.reason != "" {
		return def + ": " + rep.reason
	}
	return def
}

// phaseKind is the failure kind of a failed step whose output said nothing parsable.
func phaseKind(p glv1.Phase) glv1.FailureKind {
	switch p {
	case glv1.Phase_PHASE_INSTALL:
		return glv1.FailureKind_FAILURE_KIND_INSTALL
	case glv1.Phase_PHASE_BUILD:
		return glv1.FailureKind_FAILURE_KIND_COMPILE
	case glv1.Phase_PHASE_LINT:
		return glv1.FailureKind_FAILURE_KIND_LINT
	case glv1.Phase_PHASE_TYPECHECK:
		return glv1.FailureKind_FAILURE_KIND_TYPECHECK
	case glv1.Phase_PHASE_TEST:
		return glv1.FailureKind_FAILURE_KIND_TEST_ERROR
	}
	return glv1.FailureKind_FAILURE_KIND_CRASH
}
