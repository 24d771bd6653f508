package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strings"
	"time"

	"go.uber.org/zap"
	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
	"github.com/greenlight-dev/greenlight/services/loop/internal/coverage"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
	"github.com/greenlight-dev/greenlight/services/loop/internal/report"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
)

// rerunSuffix names a re-run step after the step whose failing tests it
// runs again ("pytest:rerun", "web:test:rerun"); the executor accepts step
// names of at most maxStepName characters from [A-Za-z0-9_.:@/+-].
const (
	rerunSuffix = ":rerun"
	maxStepName = 128
)

// maxFlakyNamed caps the flaky test ids a summary names.
const maxFlakyNamed = 5

// rerun is one re-run of a test step's failing tests.
type rerun struct {
	// of is the pipeline index of the step that was re-run.
	of int
	// outcome is the re-run step, its result (nil: it never ran) and its
	// parsed report.
	outcome score.StepOutcome
	// artifacts are what the re-run's execution stored.
	artifacts []*glv1.Artifact
	// note says what the re-run showed, for the result's summary.
	note string
}

// rerunFailed carries out VerifyOptions.rerun_failed for the step at
// pipeline index i, parsed into o.Report. When that step is a test step
// that FAILED on its exit code (a timeout, an OOM kill or a verdict rule
// such as report-disagrees never is) with failing tests the parser named,
// the identical step runs again, whole, in one more Execute call on the
// same snapshot: a fresh sandbox with the step's image, command, workdir,
// env and report files, after the install and build steps. A test is
// flaky only when it failed and then passed under those identical
// conditions: code that behaves only when its test is selected by name
// (`-test.run`, "::" in sys.argv) fails the identical re-run as it failed
// the first. Tests that pass there are marked flaky by
// parse.MarkFlakyExcept, except the ones the verification never excuses
// (the run's targets, tests in files the change touched): they stay in the
// result (marked, counted in counts.flaky, their failures kept), and a
// step whose only failures were flaky and whose re-run passed passes
// (score.StepOutcome.EffectiveOK, which verdict.Run uses). A fix run's
// grading verification never re-runs: it decides acceptance. The steps
// the executor skipped because this one failed run in the same call right
// after the re-run, so a flaky pass never leaves the rest of the pipeline
// unchecked; their results replace the skipped ones only when the step
// passed on re-run.
//
// The re-run command is the step's own whitelisted command, unchanged: no
// model chooses it, so running it needs no approval of its own.
func (r *run) rerunFailed(ctx context.Context, v *verification, i int, o *score.StepOutcome, fsys fs.FS) error {
	cmd, ok := rerunCommand(v, *o)
	if !ok {
		return nil
	}
	before := o.Report.Counts.Failed + o.Report.Counts.Errors
	rs := rerunStep(o.Step, cmd)
	rr := rerun{of: i, outcome: score.StepOutcome{Step: rs}}
	left := time.Until(v.started.Add(v.spec.budget))
	if left <= 0 {
		rr.note = fmt.Sprintf("%s: no time left in the budget to re-run its %d failing test(s)", o.Name(), before)
		v.reruns = append(v.reruns, rr)
		return nil
	}
	p, eventIndex, at := rerunPipeline(v, i, rs)
	r.log.Info("re-running failing tests", zap.String("step", o.Name()), zap.String("command", cmd),
		zap.Int("setup", at), zap.Int("continuing", len(eventIndex)-at-1))
	ex, err := r.executeAs(ctx, v.spec.snapshot, p, v.spec.opts, left, eventIndex)
	if errors.Is(err, context.Canceled) || ctx.Err() != nil {
		return context.Canceled
	}
	if err != nil {
		if !errors.Is(err, errInfra) {
			return err
		}
		r.log.Warn("the re-run could not be carried out; the failure stands", zap.String("step", o.Name()), zap.Error(err))
		rr.note = fmt.Sprintf("%s: the re-run of its failing tests could not run (%s)", o.Name(),
			strings.TrimPrefix(err.Error(), errInfra.Error()+": "))
		v.reruns = append(v.reruns, rr)
		return nil
	}
	rr.outcome.Result, rr.artifacts = ex.results[at], ex.finished.GetArtifacts()
	var flaky []string
	if rr.outcome.Result != nil && rr.outcome.Ran() {
		rep, err := r.parseStep(ctx, rr.outcome, fsys, rr.artifacts)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			r.log.Warn("parsing the re-run log failed; the failure stands", zap.String("step", rs.GetName()), zap.Error(err))
		}
		rr.outcome.Report = rep
		flaky = parse.MarkFlakyExcept(o.Report, rep, v.spec.neverFlaky)
	}
	if o.Report.PassedOnRerun {
		continueAfterRerun(v, ex, eventIndex, at)
	}
	rr.note = rerunNote(o.Name(), before, rr.outcome, flaky)
	v.reruns = append(v.reruns, rr)
	return nil
}

// rerunCommand returns the re-run command for a step's outcome (the
// step's own command: the re-run is identical), or false when the step is
// not one to re-run: re-runs are off, this is a fix run's grading
// verification, the step is no test step that FAILED on its exit code
// alone, or its report names no failing test that could be flaky.
func rerunCommand(v *verification, o score.StepOutcome) (string, bool) {
	switch {
	case !v.spec.opts.GetRerunFailed() || v.exec == nil || v.budgetHit || v.spec.grading:
		return "", false
	case o.Report == nil || o.Status() != glv1.StepStatus_STEP_STATUS_FAILED || o.Result.GetRule() != "":
		return "", false
	case o.Step.GetPhase() != glv1.Phase_PHASE_TEST && o.Level() != glv1.Level_LEVEL_L4:
		return "", false
	}
	for _, t := range o.Report.Tests {
		if t.Status.Failing() && (v.spec.neverFlaky == nil || !v.spec.neverFlaky(t)) {
			return o.Step.GetCommand(), true
		}
	}
	return "", false
}

// narrowedCommand is a failed test step's command narrowed to the failing
// tests its report named (the framework's own selectors), or false when
// the step is not a test step that FAILED (a timeout or OOM kill never
// is) or its tests cannot be selected.
func narrowedCommand(o score.StepOutcome) (string, bool) {
	switch {
	case o.Report == nil || o.Status() != glv1.StepStatus_STEP_STATUS_FAILED:
		return "", false
	case o.Step.GetPhase() != glv1.Phase_PHASE_TEST && o.Level() != glv1.Level_LEVEL_L4:
		return "", false
	}
	return parse.RerunCommand(o.Step.GetCommand(), o.Report)
}

// rerunStep is step under a re-run's name: the identical command, env,
// workdir and report files (an identical invocation), or with cmd when it
// differs (a fail-fast probe's narrowed command, which writes no report
// file: its log is what gets parsed).
func rerunStep(step *glv1.Step, cmd string) *glv1.Step {
	rs := proto.Clone(step).(*glv1.Step)
	rs.Name = rs.GetName()[:min(len(rs.GetName()), maxStepName-len(rerunSuffix))] + rerunSuffix
	rs.ContinueOnFailure = false
	if cmd == step.GetCommand() {
		return rs
	}
	rs.Command = cmd
	// The display of the whole step's command does not describe the
	// narrowed one: show the narrowed command, the launcher read as the
	// `python -m TOOL` it runs.
	rs.DisplayCommand = ""
	if d := pylaunch.Readable(cmd); d != cmd {
		rs.DisplayCommand = d
	}
	rs.ReportFiles = nil
	coverage.ForNarrowedRun(rs)
	return rs
}

// rerunPipeline is the pipeline of a re-run: the setup steps (silent:
// their events are not forwarded, index -1), the re-run step at index at,
// then every later step the executor skipped, with the run-event index of
// each (the re-run takes a fresh index past the pipeline's, the others
// keep theirs).
func rerunPipeline(v *verification, i int, rs *glv1.Step) (p *glv1.Pipeline, eventIndex []int32, at int) {
	steps := v.pipeline.GetSteps()
	p = proto.Clone(v.pipeline).(*glv1.Pipeline)
	p.Steps = setupSteps(v, i)
	for range p.Steps {
		eventIndex = append(eventIndex, -1)
	}
	at = len(p.Steps)
	p.Steps = append(p.Steps, rs)
	eventIndex = append(eventIndex, int32(len(steps)+v.extraIndices+len(v.reruns)))
	for j := i + 1; j < len(steps); j++ {
		if res := v.exec.results[j]; res == nil || res.GetStatus() == glv1.StepStatus_STEP_STATUS_SKIPPED {
			p.Steps = append(p.Steps, steps[j])
			eventIndex = append(eventIndex, int32(j))
		}
	}
	return p, eventIndex, at
}

// setupSteps are the steps of v before pipeline index end that prepare
// the tree its tests ran in: the install and build steps that ran (a
// venv, node_modules, built output; the dependency cache restores
// installs). A re-run in a fresh sandbox runs them first, or its tests
// would not see what the full run's saw. (A fail-fast probe needs none:
// it runs inside the pipeline, after them.)
func setupSteps(v *verification, end int) []*glv1.Step {
	var out []*glv1.Step
	for j, st := range v.pipeline.GetSteps()[:end] {
		switch st.GetPhase() {
		case glv1.Phase_PHASE_INSTALL, glv1.Phase_PHASE_BUILD:
		default:
			continue
		}
		if o := (score.StepOutcome{Step: st, Result: v.exec.results[j]}); o.Result != nil && o.Ran() {
			out = append(out, st)
		}
	}
	return out
}

// continueAfterRerun takes the results of the steps that ran after a
// successful re-run (at) in place of their skipped ones; analyze parses
// them when it reaches them.
func continueAfterRerun(v *verification, ex *execution, eventIndex []int32, at int) {
	if v.exec.stepArtifacts == nil {
		v.exec.stepArtifacts = map[int][]*glv1.Artifact{}
	}
	for k := at + 1; k < len(eventIndex) && k < len(ex.results); k++ {
		j := int(eventIndex[k])
		if ex.results[k] == nil {
			continue
		}
		v.exec.results[j] = ex.results[k]
		v.exec.stepArtifacts[j] = ex.finished.GetArtifacts()
	}
}

// rerunNote says what a re-run showed.
func rerunNote(step string, failing int, o score.StepOutcome, flaky []string) string {
	switch {
	case o.Result == nil || !o.Ran():
		why := o.Result.GetReason()
		if why == "" {
			why = "no result"
		}
		return fmt.Sprintf("%s: the re-run of its failing tests did not run (%s)", step, why)
	case len(flaky) == 0:
		return fmt.Sprintf("%s: the %d failing test(s) failed again on re-run", step, failing)
	}
	named := flaky[:min(len(flaky), maxFlakyNamed)]
	more := ""
	if len(flaky) > len(named) {
		more = fmt.Sprintf(" and %d more", len(flaky)-len(named))
	}
	return fmt.Sprintf("%s: %d of %d failing test(s) passed on re-run, marked flaky: %s%s",
		step, len(flaky), failing, strings.Join(named, ", "), more)
}

// recordReruns adds the re-runs to a verification's result: each as an
// optional step (after the pipeline's steps) with its parsed counts, its
// command in the manifest, its log and artifacts, its tail in the tail log
// and what it showed in the summary.
func (v *verification) recordReruns(res *glv1.Result) {
	if len(v.reruns) == 0 {
		return
	}
	tail := slices.Clone(v.outcomes)
	var notes []string
	for n, rr := range v.reruns {
		notes = append(notes, rr.note)
		if rr.outcome.Result == nil {
			continue
		}
		tail = append(tail, rr.outcome)
		sr := proto.Clone(rr.outcome.Result).(*glv1.StepResult)
		sr.Optional = true // informational: the verdict stays with the step it re-ran
		if rr.outcome.Report != nil {
			sr.Counts = rr.outcome.Report.CountsProto()
		}
		res.Steps = append(res.Steps, sr)
		if rr.outcome.Ran() {
			addCommandRecord(res.GetManifest(), v.outcomes[rr.of].Name(), sr)
		}
		prefix := fmt.Sprintf("rerun-%02d", n+1)
		if d := sr.GetLogDigest(); d.GetHash() != "" {
			res.Artifacts = append(res.Artifacts, &glv1.Artifact{Path: "logs/" + prefix + "-" + safeStepName(v.outcomes[rr.of].Name()) + ".log", Digest: d})
		}
		for _, a := range rr.artifacts {
			res.Artifacts = append(res.Artifacts, &glv1.Artifact{Path: prefix + "/" + a.GetPath(), Digest: a.GetDigest()})
		}
	}
	sort.SliceStable(res.Artifacts, func(a, b int) bool { return res.Artifacts[a].GetPath() < res.Artifacts[b].GetPath() })
	res.ArtifactPaths = res.ArtifactPaths[:0]
	for _, a := range res.Artifacts {
		res.ArtifactPaths = append(res.ArtifactPaths, a.GetPath())
	}
	res.TailLog = report.TailLog(tail)
	res.Summary += "; " + strings.Join(notes, "; ")
}

// addCommandRecord lists an executed re-run in the manifest right after
// the command it re-ran.
func addCommandRecord(m *glv1.Manifest, after string, sr *glv1.StepResult) {
	if m == nil {
		return
	}
	rec := &glv1.CommandRecord{Name: sr.GetName(), Command: sr.GetCommand(), ExitCode: sr.GetExitCode(),
		DurationMs: sr.GetDuration().AsDuration().Milliseconds(), Status: sr.GetStatus(), Workdir: sr.GetWorkdir()}
	at := len(m.CommandsExecuted)
	for k, c := range m.CommandsExecuted {
		if c.GetName() == after {
			at = k + 1
		}
	}
	m.CommandsExecuted = slices.Insert(m.CommandsExecuted, at, rec)
}

// safeStepName keeps a step name usable in a file name ("web:test" →
// "web-test"), as the report's log artifacts do.
func safeStepName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '-'
	}, s)
}
