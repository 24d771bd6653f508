// Package score computes greenlight's deterministic 3/4/2/1 score and the
// verification level a run reached, and resolves it against an optional
// model score.
//
// Components (total 10):
//
//   - build (3): 3 when something at L3 or above proved the code builds and
//     runs (an L3+ step finished OK, or a test step executed at least one
//     test) and no install or build step failed and no compile or install
//     failure was found anywhere (a `go test` build failure counts). Else 0:
//     an install failure is build 0.
//   - tests (4): 4 × passed / (passed + failed + errors), summed over the
//     test steps that ran; skipped tests are not in the denominator; flaky
//     tests (failed, then passed on re-run) count as passed. A test step
//     whose output no parser understood counts as one test decided by its
//     exit code. No test executed — no test step, zero tests, or all skipped
//     — gives 0: the points reward assertions that really ran, so a run
//     without tests scores at most 6 and reaches level L3.
//   - lint (2): issues summed over lint and typecheck steps that ran: 0 → 2,
//     1–4 → 1, 5 or more → 0. No lint/typecheck step ran → 0: lint points
//     are not given for free. A lint step that failed without a parsable
//     issue count is treated as 5+ issues (0 points).
//   - no critical errors (1): 1 unless a compile, crash, timeout, OOM or
//     install failure was found, a step timed out, was OOM-killed or hit an
//     infrastructure error, or nothing ran.
//
// Level: the highest level of a step that finished OK (L4 only for a test
// step from which at least one passing test result was parsed, else L3 and
// the rule says why; a step passed on flaky re-run counts as OK).
//
// A failing verdict never scores at or above the pass threshold:
// CapFailing clamps the total below it and says so in the rule. Steps without a level take one from their phase: test → L4;
// build, smoke → L3; lint, typecheck → L2.
//
// Resolution: the deterministic score decides by default; a model score is
// attached for information. With PolicyModelFirst the model's score decides
// the number (never the verdict). When nothing ran, a model score decides if
// given, else the score is 5.0, "needs human review".
package score

import (
	"fmt"
	"math"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// Policy selects which score decides.
type Policy int

const (
	// PolicyDeterministic lets the deterministic score decide (default).
	PolicyDeterministic Policy = iota
	// PolicyModelFirst lets a model score, when present, decide the number.
	PolicyModelFirst
)

// NeedsReview is the score when nothing ran and no model scored.
const NeedsReview = 5.0

// StepOutcome is one step as planned, executed and parsed.
type StepOutcome struct {
	Step   *glv1.Step
	Result *glv1.StepResult
	// Report is the parsed output; nil when the step did not run.
	Report *parse.StepReport
}

// Input is what the score is computed from.
type Input struct {
	Steps []StepOutcome
	// Model is an optional model score in [0, 10].
	Model  *float64
	Policy Policy
}

// Compute returns the score.
func Compute(in Input) *glv1.Score {
	c := components(in.Steps)
	s := &glv1.Score{
		Build: c.build, Tests: round2(c.tests), Lint: c.lint, NoCritical: c.noCritical,
		Level: c.level, LintIssues: int32(c.lintIssues),
	}
	c.security.fill(s)
	det := round2(c.build + c.tests + c.lint + c.noCritical)
	parts := fmt.Sprintf("build %g (%s) + tests %g (%s) + lint %g (%s) + no-critical %g (%s) = %g",
		c.build, c.buildWhy, round2(c.tests), c.testsWhy, c.lint, c.lintWhy, c.noCritical, c.critWhy, det)
	if in.Model != nil {
		s.ModelScore, s.HasModelScore = clamp(*in.Model), true
	}
	switch {
	case !c.ran && s.HasModelScore:
		s.Total, s.DecidedBy = s.ModelScore, glv1.ScoreSource_SCORE_SOURCE_MODEL
		s.Rule = fmt.Sprintf("model: no step ran, the model score %g decides (never a PASS)", s.ModelScore)
	case !c.ran:
		s.Total, s.DecidedBy = NeedsReview, glv1.ScoreSource_SCORE_SOURCE_UNSPECIFIED
		s.Rule = "default: no step ran and no model score: 5.0, needs human review"
	case in.Policy == PolicyModelFirst && s.HasModelScore:
		s.Total, s.DecidedBy = s.ModelScore, glv1.ScoreSource_SCORE_SOURCE_MODEL
		s.Rule = fmt.Sprintf("model-first policy: model score %g decides; deterministic %s", s.ModelScore, parts)
	default:
		s.Total, s.DecidedBy = det, glv1.ScoreSource_SCORE_SOURCE_DETERMINISTIC
		s.Rule = "deterministic: " + parts + levelNote(c) + c.security.note()
		if s.HasModelScore {
			s.Rule += fmt.Sprintf("; model score %g recorded, not deciding", s.ModelScore)
		}
	}
	return s
}

// parts are the computed components with their reasons.
type parts struct {
	build, tests, lint, noCritical       float64
	buildWhy, testsWhy, lintWhy, critWhy string
	level                                glv1.Level
	lintIssues                           int
	ran                                  bool
	security                             security
	// capped names the test steps that finished OK without a parsed
	// passing test: they prove L3, not L4.
	capped []string
}

func components(steps []StepOutcome) parts {
	var p parts
	var (
		built, buildFailed, critical bool
		counts                       parse.Counts
		synthetic                    int
		lintRan, lintUnknown         bool
		buildWhy, critWhy            []string
	)
	for _, o := range steps {
		if o.phase() == glv1.Phase_PHASE_SECURITY {
			// Security scans score only their own component: they prove
			// nothing about building or testing, are no lint, reach no
			// level, and alone are not "something ran".
			p.security.add(o)
			continue
		}
		st := status(o)
		if !ran(st) {
			if st == glv1.StepStatus_STEP_STATUS_ERROR {
				critical = true
				critWhy = append(critWhy, o.name()+" could not run")
			}
			continue
		}
		p.ran = true
		ok := effectiveOK(o)
		phase, level := o.phase(), o.level()
		rep := o.Report
		switch st {
		case glv1.StepStatus_STEP_STATUS_TIMED_OUT, glv1.StepStatus_STEP_STATUS_OOM_KILLED:
			critical = true
			critWhy = append(critWhy, o.name()+" "+strings.ToLower(display.Enum(st)))
		}
		// An advisory install or build step (e.g. Python's pip-install, whose
		// required pip-fallback decides whether the project is usable) is
		// reported but does not make the build broken: the required steps
		// after it show whether the code built.
		advisory := o.Optional() && (phase == glv1.Phase_PHASE_INSTALL || phase == glv1.Phase_PHASE_BUILD)
		if !ok && !advisory && (phase == glv1.Phase_PHASE_INSTALL || phase == glv1.Phase_PHASE_BUILD) {
			buildFailed = true
			buildWhy = append(buildWhy, o.name()+" failed")
		}
		if rep != nil && !advisory {
			for _, f := range rep.Failures {
				switch f.Kind {
				case glv1.FailureKind_FAILURE_KIND_COMPILE, glv1.FailureKind_FAILURE_KIND_INSTALL:
					if !buildFailed || len(buildWhy) == 0 {
						buildWhy = append(buildWhy, fmt.Sprintf("%s failure in %s", kindName(f.Kind), o.name()))
					}
					buildFailed = true
					critical = true
					critWhy = append(critWhy, kindName(f.Kind)+" failure")
				case glv1.FailureKind_FAILURE_KIND_CRASH, glv1.FailureKind_FAILURE_KIND_TIMEOUT, glv1.FailureKind_FAILURE_KIND_OOM:
					if !f.Flaky {
						critical = true
						critWhy = append(critWhy, kindName(f.Kind)+" in "+o.name())
					}
				}
			}
		}
		if ok && level >= glv1.Level_LEVEL_L3 {
			built = true
		}
		if isTestStep(phase, level) {
			if rep != nil && rep.HasTests {
				counts = counts.Add(rep.Counts)
				if rep.Counts.Passed+rep.Counts.Failed > 0 {
					built = true
				}
			} else {
				synthetic++
				if ok {
					counts.Passed++
				} else {
					counts.Failed++
				}
			}
		}
		if phase == glv1.Phase_PHASE_LINT || phase == glv1.Phase_PHASE_TYPECHECK || level == glv1.Level_LEVEL_L2 {
			lintRan = true
			if rep != nil {
				p.lintIssues += rep.LintIssues
			}
			if !ok && (rep == nil || rep.LintIssues == 0) {
				lintUnknown = true
			}
		}
		p.level = maxLevel(p.level, reached(ok, level, rep))
		if ok && level == glv1.Level_LEVEL_L4 && !passedParsed(rep) {
			p.capped = append(p.capped, o.name())
		}
	}
	p.build, p.buildWhy = buildPoints(built, buildFailed, buildWhy)
	p.tests, p.testsWhy = testPoints(counts, synthetic)
	p.lint, p.lintWhy = lintPoints(lintRan, lintUnknown, p.lintIssues)
	switch {
	case !p.ran:
		p.critWhy = "nothing ran"
	case critical:
		p.critWhy = strings.Join(dedupe(critWhy), ", ")
	default:
		p.noCritical, p.critWhy = 1, "none"
	}
	return p
}

// reached is the level one step proved: its own level when it finished OK
// (a test step from which no passing test was parsed proves only L3: a
// step named "test" running `true` is no test), L3 when a failing test
// step still executed tests (the code built and ran).
func reached(ok bool, level glv1.Level, rep *parse.StepReport) glv1.Level {
	executed := rep != nil && rep.HasTests && rep.Counts.Passed+rep.Counts.Failed+rep.Counts.Errors > 0
	switch {
	case ok && level == glv1.Level_LEVEL_L4 && !passedParsed(rep):
		return glv1.Level_LEVEL_L3
	case ok:
		return level
	case level == glv1.Level_LEVEL_L4 && executed && rep.Counts.Passed > 0:
		return glv1.Level_LEVEL_L3
	}
	return glv1.Level_LEVEL_UNSPECIFIED
}

// passedParsed reports whether at least one passing test was parsed from
// a step's output: L4 needs that proof, an exit code alone is not enough.
func passedParsed(rep *parse.StepReport) bool {
	return rep != nil && rep.HasTests && rep.Counts.Passed > 0
}

// levelNote says why the level stopped at L3 though a test step passed.
func levelNote(p parts) string {
	if p.level != glv1.Level_LEVEL_L3 || len(p.capped) == 0 {
		return ""
	}
	return fmt.Sprintf("; level L3, not L4: no passing test result was parsed from %s (L4 needs at least one)", strings.Join(dedupe(p.capped), ", "))
}

func maxLevel(a, b glv1.Level) glv1.Level {
	if b > a {
		return b
	}
	return a
}

func buildPoints(built, failed bool, why []string) (float64, string) {
	switch {
	case failed:
		return 0, strings.Join(dedupe(why), ", ")
	case !built:
		return 0, "no L3+ step proved the build"
	}
	return 3, "builds"
}

func testPoints(c parse.Counts, synthetic int) (float64, string) {
	executed := c.Passed + c.Failed + c.Errors
	if executed == 0 {
		if c.Skipped > 0 {
			return 0, fmt.Sprintf("all %d tests skipped", c.Skipped)
		}
		return 0, "no tests ran"
	}
	why := fmt.Sprintf("%d/%d passed", c.Passed, executed)
	if c.Flaky > 0 {
		why += fmt.Sprintf(", %d flaky", c.Flaky)
	}
	if synthetic > 0 {
		why += fmt.Sprintf(", %d unparsed test step(s) counted by exit code", synthetic)
	}
	return 4 * float64(c.Passed) / float64(executed), why
}

func lintPoints(ran, unknown bool, issues int) (float64, string) {
	switch {
	case !ran:
		return 0, "no lint/typecheck step ran"
	case unknown:
		return 0, "lint step failed without a parsable issue count"
	case issues == 0:
		return 2, "0 issues"
	case issues < 5:
		return 1, fmt.Sprintf("%d issues", issues)
	}
	return 0, fmt.Sprintf("%d issues", issues)
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

func clamp(f float64) float64 { return math.Max(0, math.Min(10, f)) }

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func kindName(k glv1.FailureKind) string {
	return strings.ToLower(display.Enum(k))
}

// CapFailing clamps the total of a FAIL verdict's score below threshold
// (to the one-decimal figure under it, so no display rounds it back up)
// and says so in the rule. Scores already below are left alone.
func CapFailing(s *glv1.Score, threshold float64) {
	if s == nil || s.GetTotal() < threshold {
		return
	}
	capped := math.Max(0, math.Ceil(threshold*10)/10-0.1)
	capped = math.Round(capped*10) / 10
	s.Rule += fmt.Sprintf("; capped from %g to %g: a failing verdict never scores at or above the pass threshold %g", s.GetTotal(), capped, threshold)
	s.Total = capped
}
