package verdict

import (
	"fmt"
	"sort"
	"strings"

	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
)

// PatchOutcome.rule values of the patch rules (see Patch).
const (
	// RuleRegression: the patched code did worse than before (see
	// Regressions).
	RuleRegression = "regression"
)

// maxListedTests bounds how many test ids a regression reason names.
const maxListedTests = 10

// Regression is one way a verification is worse than an earlier one of
// the same (pinned) pipeline.
type Regression struct {
	// Step is the step concerned ("" for the failing-check count).
	Step string
	// Tests are the test ids concerned, sorted ("" entries never).
	Tests []string
	// What says what happened, in words.
	What string
}

// String renders the regression for a reason or the model's feedback.
func (g Regression) String() string {
	s := g.What
	if g.Step != "" {
		s = fmt.Sprintf("step %q: %s", g.Step, g.What)
	}
	if len(g.Tests) > 0 {
		s += ": " + listTests(g.Tests)
	}
	return s
}

// listTests names at most maxListedTests ids.
func listTests(ids []string) string {
	if len(ids) <= maxListedTests {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ids[:maxListedTests], ", "), len(ids)-maxListedTests)
}

// Regressions lists what after does worse than before; both
// verified the same pinned pipeline, so steps are compared by position
// (and name). A required step that passed and now fails or does not run,
// a test that passed and now fails, is skipped or disappeared (from a
// complete test inventory; from an incomplete one, fewer passing tests),
// a failing test that is now skipped or no longer runs, and more failing
// checks (when counts is set) each count. Optional steps
// are not compared: they never decide the verdict.
func Regressions(before, after Verification, counts bool) []Regression {
	var out []Regression
	for i, b := range before.Steps {
		if b.Optional() || i >= len(after.Steps) || after.Steps[i].Step.GetName() != b.Step.GetName() {
			continue
		}
		out = append(out, compareStep(b, after.Steps[i])...)
	}
	if counts {
		if nb, na := FailingChecks(before), FailingChecks(after); na > nb {
			out = append(out, Regression{What: fmt.Sprintf("more checks fail: %d before, %d after", nb, na)})
		}
	}
	return out
}

// compareStep compares one step's outcomes.
func compareStep(b, a score.StepOutcome) []Regression {
	name := b.Step.GetName()
	var out []Regression
	if StepPassed(b) && !StepPassed(a) {
		what := "passed before and now fails"
		if a.Result == nil || !a.Ran() {
			what = "passed before and now does not run"
		}
		out = append(out, Regression{Step: name, What: what})
	}
	return append(out, compareTests(name, b.Report, a.Report)...)
}

// StepPassed reports whether a step ran and passed (a step whose only
// failures were flaky tests passed).
func StepPassed(o score.StepOutcome) bool { return o.Result != nil && o.Ran() && o.EffectiveOK() }

// compareTests compares the tests of one step's two reports.
func compareTests(step string, b, a *parse.StepReport) []Regression {
	if b == nil || !b.HasTests {
		return nil
	}
	passed := passedTests(b)
	after := map[string]parse.Outcome{}
	if a != nil && a.HasTests {
		for _, t := range a.Inventory {
			after[t.ID] = t
		}
	}
	var failed, skipped, gone []string
	for _, id := range passed {
		t, ok := after[id]
		switch StateOf(t, ok) {
		case Absent:
			gone = append(gone, id)
		case Passing:
		case Skipped:
			skipped = append(skipped, id)
		default:
			failed = append(failed, id)
		}
	}
	var out []Regression
	if len(failed) > 0 {
		out = append(out, Regression{Step: step, Tests: failed, What: fmt.Sprintf("%d test(s) that passed before now fail", len(failed))})
	}
	if len(skipped) > 0 {
		out = append(out, Regression{Step: step, Tests: skipped, What: fmt.Sprintf("%d test(s) that passed before are now skipped", len(skipped))})
	}
	if complete(b) && complete(a) && len(gone) > 0 {
		out = append(out, Regression{Step: step, Tests: gone, What: fmt.Sprintf("%d test(s) that passed before disappeared", len(gone))})
	}
	if (!complete(b) || !complete(a)) && passedCount(a) < b.Counts.Passed {
		out = append(out, Regression{Step: step, What: fmt.Sprintf(
			"fewer tests pass: %d before, %d after (tests failed to build, import or be collected?)", b.Counts.Passed, passedCount(a))})
	}
	return append(out, vanishedFailures(step, b, a, after)...)
}

// vanishedFailures lists the tests that failed before and now are skipped
// or gone (deselected, no longer collected) instead of passing or still
// failing. A failure whose id prefixes a test of after (a module that did
// not import, now collected test by test) did not vanish; without a
// complete inventory after, a test is gone only when fewer tests ran.
func vanishedFailures(step string, b, a *parse.StepReport, after map[string]parse.Outcome) []Regression {
	fewer := a == nil || complete(a) || a.Counts.Total() < b.Counts.Total()
	var skipped, gone []string
	for _, t := range b.Inventory {
		if !t.Failing() {
			continue
		}
		at, ok := after[t.ID]
		switch {
		case ok && at.Status == parse.StatusSkipped:
			skipped = append(skipped, t.ID)
		case !ok && fewer && !prefixesAny(t.ID, after):
			gone = append(gone, t.ID)
		}
	}
	sort.Strings(skipped)
	sort.Strings(gone)
	var out []Regression
	if len(skipped) > 0 {
		out = append(out, Regression{Step: step, Tests: skipped, What: fmt.Sprintf("%d failing test(s) are now skipped instead of fixed", len(skipped))})
	}
	if len(gone) > 0 {
		out = append(out, Regression{Step: step, Tests: gone, What: fmt.Sprintf("%d failing test(s) no longer run (deselected or not collected) instead of being fixed", len(gone))})
	}
	return out
}

// prefixesAny reports whether id names a container of a test id of after
// (a package or module whose failure was one record, now collected test
// by test): after's id continues id at a component boundary. "TestX" is
// no container of "TestXFoo": a prefix-named new test never hides a
// vanished one.
func prefixesAny(id string, after map[string]parse.Outcome) bool {
	for other := range after {
		rest, ok := strings.CutPrefix(other, id)
		if !ok || rest == "" {
			continue
		}
		for _, sep := range idSeparators {
			if strings.HasPrefix(rest, sep) {
				return true
			}
		}
	}
	return false
}

// idSeparators are what joins a container to its tests in the ids the
// parsers give: pytest's "::" and parameters, Go's "pkg.TestX" and
// subtests, unittest's dots, the JavaScript runners' " > ".
var idSeparators = []string{"::", "[", "/", ".", " > ", " › "}

// passedTests lists, sorted, the ids of the tests a report says passed
// (flaky ones included: they passed on re-run).
func passedTests(r *parse.StepReport) []string {
	var out []string
	for _, t := range r.Inventory {
		if t.Passed() {
			out = append(out, t.ID)
		}
	}
	sort.Strings(out)
	return out
}

// complete reports whether a report's inventory lists every test it
// counted, so a test missing from it did not run.
func complete(r *parse.StepReport) bool {
	return r != nil && r.HasTests && r.InventoryComplete
}

// passedCount is the number of passing tests of a report (0 without one).
func passedCount(r *parse.StepReport) int {
	if r == nil || !r.HasTests {
		return 0
	}
	return r.Counts.Passed
}

// DescribeRegressions renders regressions as one reason.
func DescribeRegressions(rs []Regression) string {
	parts := make([]string, len(rs))
	for i, g := range rs {
		parts[i] = g.String()
	}
	return strings.Join(parts, "; ")
}
