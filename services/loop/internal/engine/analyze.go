package engine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"go.uber.org/zap"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/loop/internal/coverage"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
	"github.com/greenlight-dev/greenlight/services/loop/internal/report"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
	"github.com/greenlight-dev/greenlight/services/loop/internal/verdict"
)

// analyze is PARSE and SCORE: every step that ran has its stored log parsed
// (a TestsParsed event each), the score is computed (a Score event) and the
// output-contract result is built. What a step's status becomes is the
// verdict package's: analyze gathers what its rules read (the results, the
// parsed reports, the snapshot's tree, whether the index was unreachable)
// and runs them.
func (r *run) analyze(ctx context.Context, v *verification, tr *trees) error {
	var fsys fs.FS
	if v.exec != nil && v.spec.snapshot.GetSizeBytes() <= maxParseTreeBytes {
		// Best effort: the parser only uses the tree to resolve paths.
		fsys, _ = tr.fs(ctx, v.spec.snapshot)
	}
	unreachable := v.exec != nil && verdict.IndexUnreachable(v.pipeline.GetSteps(), v.exec.results)
	cov := coverage.NewSet()
	for i, s := range v.pipeline.GetSteps() {
		o := score.StepOutcome{Step: s}
		if v.exec != nil {
			o.Result = verdict.Steps(verdict.OnExit, verdict.StepInput{Step: s, Result: v.exec.results[i], IndexUnreachable: unreachable, Tree: fsys})
		}
		if o.Result != nil && o.Ran() {
			rep, err := r.parseStep(ctx, o, fsys, v.exec.artifactsFor(i))
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				r.log.Warn("parsing a step log failed; its exit status still decides", zap.String("step", s.GetName()), zap.Error(err))
			}
			o.Report = rep
			cov.Merge(r.stepCoverage(ctx, s, fsys, v.exec.artifactsFor(i)))
			// Before any re-run: a step the report fails is never flaky.
			o.Result = verdict.Steps(verdict.OnReport, verdict.StepInput{Step: s, Result: o.Result, Report: rep,
				IndexUnreachable: unreachable, Tree: fsys, Selected: v.selectedTests(s)})
			// Before TestsParsed, so the event counts the flaky tests.
			if err := r.rerunFailed(ctx, v, i, &o, fsys); err != nil {
				return err
			}
			if rep != nil && (rep.HasTests || rep.HasLint || len(rep.Failures) > 0) {
				if err := r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_TestsParsed{TestsParsed: rep.TestsParsedProto()}}); err != nil {
					return err
				}
			}
		}
		v.outcomes = append(v.outcomes, o)
	}
	// The result caps a FAIL's score below the threshold and drops an
	// ERROR's; the Score event carries what the result carries.
	sc := score.Compute(score.Input{Steps: v.outcomes})
	measured := cov.Proto()
	if measured != nil {
		// Beside the total; in the formula only when greenlight.yaml asks.
		score.Coverage(sc, measured.GetPercent()/100, v.pipeline.GetCoverageScore())
	}
	v.result = r.buildResult(v, sc)
	v.result.Coverage = measured
	inv, err := r.storeInventory(ctx, v.outcomes)
	if err != nil {
		// The verdict stands without it; only the full list is missing.
		r.log.Warn("storing the test inventory failed", zap.Error(err))
	}
	v.result.Inventory = inv
	if sc := v.result.GetScore(); sc != nil {
		if err := r.emit(&glv1.RunEvent{Kind: &glv1.RunEvent_Score{Score: sc}}); err != nil {
			return err
		}
	}
	return nil
}

// threshold is the pass threshold no failing verdict may reach: the
// server's, or a fix run's own when lower.
func (r *run) threshold(v *verification) float64 {
	t := r.e.cfg.ScoreThreshold
	if ft := v.spec.threshold; ft > 0 && ft < t {
		t = ft
	}
	return t
}

// buildResult assembles the output contract of one verification.
func (r *run) buildResult(v *verification, sc *glv1.Score) *glv1.Result {
	in := report.Input{
		RunID: r.id, Started: v.started, Finished: r.e.now(), CommitSHA: v.spec.opts.GetCommitSha(),
		Snapshot: v.spec.snapshot, Limits: v.spec.opts.GetLimits(), Steps: v.outcomes, Score: sc,
		Tiers: v.pipeline.GetTiers(), InfraError: v.infra, Threshold: r.threshold(v),
	}
	if v.exec != nil {
		m := v.exec.finished.GetManifest()
		in.Platform, in.Artifacts = m.GetPlatform(), v.exec.finished.GetArtifacts()
		if m.GetLimits() != nil {
			in.Limits = m.GetLimits()
		}
	}
	if v.budgetHit && len(v.outcomes) == 0 && in.InfraError == "" {
		in.InfraError = fmt.Sprintf("the time budget of %s ran out before any step could run", v.spec.budget)
	}
	res := report.Build(in)
	if v.exec != nil {
		recordPlacement(res, v.exec)
	}
	v.recordReruns(res)
	if p := partialOf(v.spec.opts); p != nil {
		res.Partial = p
		res.Summary += partialSummary(p)
	}
	if pl := v.pipeline.GetPlan(); len(pl) > 0 {
		res.Plan = pl
		res.Summary += planSummary(pl)
	}
	if v.budgetHit {
		var tiers []string
		for _, s := range v.skipped {
			tiers = append(tiers, tierName(s.GetTier()))
		}
		res.Summary += fmt.Sprintf("; time budget of %s exhausted: %s cut short", v.spec.budget, strings.Join(tiers, ", "))
	}
	return res
}

// parseStep parses one step's stored log (and the machine-readable reports
// the executor stored for it).
func (r *run) parseStep(ctx context.Context, o score.StepOutcome, fsys fs.FS, arts []*glv1.Artifact) (*parse.StepReport, error) {
	in := parse.Input{Step: o.Step, Result: o.Result, Files: fsys}
	if d := o.Result.GetLogDigest(); d.GetHash() != "" {
		rc, err := r.openBlob(ctx, d)
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		in.Log = rc
	} else {
		in.Log = strings.NewReader(o.Result.GetTail())
	}
	in.Artifacts = map[string]io.Reader{}
	for _, want := range o.Step.GetReportFiles() {
		if coverage.IsReport(want) {
			continue // read by stepCoverage, not a test report
		}
		if strings.ContainsAny(want, "*?[") {
			r.patternReports(ctx, in.Artifacts, arts, o.Step.GetName(), want)
			continue
		}
		a := reportArtifact(arts, o.Step.GetName(), want)
		if a == nil {
			continue
		}
		rc, err := r.openBlob(ctx, a.GetDigest())
		if err != nil {
			continue // the log is still there to parse
		}
		defer rc.Close()
		in.Artifacts[want] = rc
	}
	return parse.Step(ctx, in)
}

// patternReports opens every artifact of the named step that a report
// pattern (Surefire's TEST-*.xml) matches, each under its own path.
func (r *run) patternReports(ctx context.Context, into map[string]io.Reader, arts []*glv1.Artifact, step, want string) {
	for _, a := range arts {
		if !ownArtifact(a.GetPath(), step) {
			continue
		}
		key, ok := reportMatch(want, a.GetPath())
		if !ok {
			continue
		}
		rc, err := r.openBlob(ctx, a.GetDigest())
		if err != nil {
			continue // the log is still there to parse
		}
		// Read now: the reports must outlive this loop, and each is capped
		// by the executor.
		data, err := io.ReadAll(rc)
		rc.Close()
		if err == nil {
			into[key] = bytes.NewReader(data)
		}
	}
}

// ownArtifact reports whether an artifact path lies in the named step's
// own reports directory (reports/step-NN-<name>/...).
func ownArtifact(p, step string) bool {
	rest, ok := strings.CutPrefix(p, "reports/step-")
	i := strings.IndexByte(rest, '-')
	if !ok || i <= 0 || strings.Trim(rest[:i], "0123456789") != "" {
		return false
	}
	return strings.HasPrefix(rest[i+1:], artifactStepName(step)+"/")
}

// reportMatch says whether a step's artifact (stored as
// "reports/step-NN-name/<path>") is the report file want names, and under
// which path the parser sees it. A want whose file name is a pattern
// (Surefire's TEST-*.xml) matches every such file, each under its own path.
func reportMatch(want, artifact string) (string, bool) {
	if !strings.ContainsAny(want, "*?[") {
		return want, artifact == want || path.Base(artifact) == path.Base(want)
	}
	parts := strings.SplitN(artifact, "/", 3)
	if len(parts) < 3 {
		return "", false
	}
	p := "/" + parts[2]
	ok, _ := path.Match(want, p)
	return p, ok
}

// openBlob opens a blob named by a wire digest.
func (r *run) openBlob(ctx context.Context, d *glv1.Digest) (io.ReadCloser, error) {
	bd, err := blob.DigestFromProto(d)
	if err != nil {
		return nil, err
	}
	return r.e.d.Blobs.Open(ctx, bd)
}

// reportArtifact finds the report file want of the named step among a
// run's artifacts. The executor stores it as reports/step-NN-<name>/<want>;
// steps of several subprojects write the same path (go-test.jsonl,
// pytest.xml), so the step's own directory decides, never the base name.
func reportArtifact(arts []*glv1.Artifact, step, want string) *glv1.Artifact {
	rel := strings.TrimPrefix(path.Clean(want), "/")
	for _, a := range arts {
		p := a.GetPath()
		if p == want {
			return a
		}
		rest, ok := strings.CutPrefix(p, "reports/step-")
		i := strings.IndexByte(rest, '-')
		if !ok || i <= 0 || strings.Trim(rest[:i], "0123456789") != "" {
			continue
		}
		if rest[i+1:] == artifactStepName(step)+"/"+rel {
			return a
		}
	}
	return nil
}

// unsafeArtifactName is what the executor replaces in a step name to name
// its artifacts (services/executor/internal/artifact.StepLogPath).
var unsafeArtifactName = regexp.MustCompile(`[^A-Za-z0-9_.+@-]+`)

// artifactStepName is a step's name as the executor's artifact paths spell it.
func artifactStepName(name string) string {
	clean := strings.Trim(unsafeArtifactName.ReplaceAllString(name, "-"), ".-")
	if clean == "" {
		return "step"
	}
	return clean
}

// recordPlacement writes where the verification ran and the
// infrastructure failures it survived into its result.
func recordPlacement(res *glv1.Result, ex *execution) {
	res.InfraRetries = ex.retries
	if ex.executor == "" || res.GetManifest() == nil {
		return
	}
	if res.Manifest.Platform == nil {
		res.Manifest.Platform = &glv1.Platform{}
	}
	res.Manifest.Platform.Executor = ex.executor
}
