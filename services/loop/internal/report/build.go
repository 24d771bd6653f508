// Package report builds the output contract — a glv1.Result with status
// PASS/FAIL/ERROR, run id, a tail log of at most 200 lines, artifact paths
// and the manifest, extended with steps, counts, failures, score and level —
// and renders patch requests as Markdown prompts for models. The status,
// its summary and whether the score is kept are package verdict's.
package report

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
	"github.com/greenlight-dev/greenlight/services/loop/internal/verdict"
)

// MaxTailLines is the output contract's cap on tail_log.
const MaxTailLines = 200

// Caps on what one result carries; the rest is counted in TestCounts.omitted
// and stays in the step logs.
const (
	maxFailures = 500
	maxTests    = 5000
)

// Input is everything a result is built from.
type Input struct {
	RunID     string
	Started   time.Time
	Finished  time.Time
	CommitSHA string
	Snapshot  *glv1.Digest
	Platform  *glv1.Platform
	Limits    *glv1.Limits
	// Steps in pipeline order, including skipped ones.
	Steps []score.StepOutcome
	// Score is computed from Steps when nil.
	Score     *glv1.Score
	Artifacts []*glv1.Artifact
	Tiers     []*glv1.TierSelection
	StopMemo  string
	// InfraError is set when verification could not be carried out.
	InfraError string
	// Threshold is the pass threshold: a FAIL's score is capped below it
	// (0: no cap).
	Threshold float64
}

// Build assembles the result.
func Build(in Input) *glv1.Result {
	sc := in.Score
	if sc == nil {
		sc = score.Compute(score.Input{Steps: in.Steps})
	}
	status, summary := verdict.Run(in.Steps, in.InfraError)
	level := sc.GetLevel()
	sc = verdict.Score(status, sc, in.Threshold)
	r := &glv1.Result{
		Status: status, RunId: in.RunID, Summary: summary, Score: sc, Level: level,
		Tiers: in.Tiers, StopMemo: in.StopMemo, TailLog: TailLog(in.Steps),
		Manifest: manifest(in),
	}
	var total parse.Counts
	var formats []string
	omitted := 0
	var advisory, warnings []*glv1.Failure
	for _, o := range in.Steps {
		r.Steps = append(r.Steps, stepResult(o))
		rep := o.Report
		if rep == nil {
			continue
		}
		if rep.HasTests {
			total = total.Add(rep.Counts)
			formats = appendUnique(formats, rep.Format)
			omitted += rep.TestsOmitted
		}
		for _, f := range rep.Failures {
			switch {
			case o.Optional():
				advisory = append(advisory, parse.FailureProto(f, rep.Evidence))
			case o.EffectiveOK():
				// A step that finished OK failed nothing: what it reported
				// (a linter's warnings, a flaky test that passed on
				// re-run) is listed, after every real failure.
				warnings = append(warnings, parse.FailureProto(f, rep.Evidence))
			case len(r.Failures) < maxFailures:
				r.Failures = append(r.Failures, parse.FailureProto(f, rep.Evidence))
			}
		}
		for _, t := range rep.Tests {
			if len(r.Tests) < maxTests {
				r.Tests = append(r.Tests, parse.TestProto(t, rep.Step))
			} else {
				omitted++
			}
		}
	}
	// Failures of required steps that failed come first: they decided the
	// verdict. An advisory step's failures (a lint nobody requires, an
	// install whose required fallback took over) follow while there is
	// room, then the findings of steps that finished OK.
	for _, more := range [][]*glv1.Failure{advisory, warnings} {
		r.Failures = append(r.Failures, more[:min(len(more), max(0, maxFailures-len(r.Failures)))]...)
	}
	format := strings.Join(formats, "+")
	if format == "" {
		format = parse.FormatUnparsed
	}
	r.Counts = parse.CountsProto(total, format, omitted)
	r.Counts.Incomplete, r.Counts.IncompleteReason = incompleteCounts(in.Steps)
	r.Artifacts = artifacts(in)
	for _, a := range r.Artifacts {
		r.ArtifactPaths = append(r.ArtifactPaths, a.GetPath())
	}
	return r
}

// stepResult copies the executor's step result and adds the parsed counts
// and where the planned command came from.
func stepResult(o score.StepOutcome) *glv1.StepResult {
	var sr *glv1.StepResult
	if o.Result != nil {
		sr = proto.Clone(o.Result).(*glv1.StepResult)
	} else {
		sr = &glv1.StepResult{Name: o.Step.GetName(), Phase: o.Step.GetPhase(), Command: o.Step.GetCommand(), DisplayCommand: o.Step.GetDisplayCommand(),
			Workdir: o.Step.GetWorkdir(), Status: glv1.StepStatus_STEP_STATUS_SKIPPED, Tier: o.Step.GetTier(),
			Level: o.Step.GetLevel(), Optional: o.Step.GetOptional()}
	}
	if sr.Level == glv1.Level_LEVEL_UNSPECIFIED {
		sr.Level = o.Level()
	}
	if sr.Source == nil && o.Step.GetSource() != nil {
		sr.Source = proto.Clone(o.Step.GetSource()).(*glv1.CommandSource)
	}
	if rep := o.Report; rep != nil {
		sr.Counts = rep.CountsProto()
		sr.LintIssues = int32(rep.LintIssues)
	}
	return sr
}

// manifest is the run manifest: what ran, where, with what exit code.
func manifest(in Input) *glv1.Manifest {
	m := &glv1.Manifest{RunId: in.RunID, CommitSha: in.CommitSHA, Snapshot: in.Snapshot, Platform: in.Platform, Limits: in.Limits}
	if !in.Started.IsZero() {
		m.TimestampStart = timestamppb.New(in.Started)
	}
	if !in.Finished.IsZero() {
		m.TimestampEnd = timestamppb.New(in.Finished)
	}
	for _, o := range in.Steps {
		if !o.Ran() {
			continue
		}
		res := o.Result
		m.CommandsExecuted = append(m.CommandsExecuted, &glv1.CommandRecord{
			Name: o.Name(), Command: firstNonEmpty(res.GetCommand(), o.Step.GetCommand()), ExitCode: res.GetExitCode(),
			DurationMs: res.GetDuration().AsDuration().Milliseconds(), Status: res.GetStatus(),
			Workdir: firstNonEmpty(res.GetWorkdir(), o.Step.GetWorkdir()),
		})
	}
	return m
}

// artifacts are the given artifacts plus one log per step that stored one,
// in the seeds' layout (logs/step-01-install.log).
func artifacts(in Input) []*glv1.Artifact {
	out := append([]*glv1.Artifact{}, in.Artifacts...)
	have := map[string]bool{}
	for _, a := range out {
		have[a.GetPath()] = true
	}
	for i, o := range in.Steps {
		d := o.Result.GetLogDigest()
		if d.GetHash() == "" {
			continue
		}
		p := fmt.Sprintf("logs/step-%02d-%s.log", i+1, safeName(o.Name()))
		if !have[p] {
			out = append(out, &glv1.Artifact{Path: p, Digest: d})
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].GetPath() < out[b].GetPath() })
	return out
}

// safeName keeps step names usable as file names ("web:lint" → "web-lint").
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '-'
	}, s)
}

func appendUnique(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// incompleteCounts says whether any step's counts are incomplete, and why
// (each such step with its reason).
func incompleteCounts(steps []score.StepOutcome) (bool, string) {
	var why []string
	for _, o := range steps {
		if rep := o.Report; rep != nil && rep.Incomplete {
			why = append(why, rep.Step+": "+rep.IncompleteReason)
		}
	}
	return len(why) > 0, strings.Join(why, "; ")
}
