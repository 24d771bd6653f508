package cireport

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// outcome is what a reported case says about the code.
type outcome int

const (
	passed outcome = iota
	failed
	errored
	skipped
	// advisory: an advisory check (lint or typecheck nobody requires)
	// failed; it does not decide the verdict, so it must not read as a
	// failed test.
	advisory
)

// stepsSuite names the suite of steps that have no parsed tests.
const stepsSuite = "greenlight"

// tailLines is how much of a failed step's output a case carries.
const tailLines = 40

// suite is a group of cases: one step's tests, or the steps without tests.
type suite struct {
	name  string
	step  *glv1.StepResult // nil for the steps suite
	cases []testCase
}

// testCase is one test, or one step standing for itself.
type testCase struct {
	id, classname, name string
	step                string
	outcome             outcome
	duration            *durationpb.Duration
	kind                string // failure kind, or the step's status
	message             string // the whole message, cleaned
	trace               string // location, frames, evidence
	file                string
	line                int32
	flaky               bool
	isStep              bool
}

// collect turns a run into suites: the steps without parsed tests first
// (install and build run first), then one suite per step with tests, in
// pipeline order. A verdict other than PASS always shows as at least one
// failing or erroring case, so a CI system never reads it as green.
func collect(run *glv1.Run) []suite {
	res := run.GetResult()
	byStep := map[string][]*glv1.TestCase{}
	var order []string
	for _, t := range res.GetTests() {
		if _, ok := byStep[t.GetStep()]; !ok {
			order = append(order, t.GetStep())
		}
		byStep[t.GetStep()] = append(byStep[t.GetStep()], t)
	}
	steps := suite{name: stepsSuite}
	var tested []suite
	seen := map[string]bool{}
	for _, s := range res.GetSteps() {
		seen[s.GetName()] = true
		tests := byStep[s.GetName()]
		if len(tests) == 0 {
			steps.cases = append(steps.cases, stepCase(s, res))
			continue
		}
		su := suite{name: s.GetName(), step: s}
		for _, t := range tests {
			su.cases = append(su.cases, testRecord(t, s, res))
		}
		if stepBad(s) && !anyReported(su.cases) {
			// The step failed (crash, timeout, exit status) but no test
			// record says so: the step itself must.
			su.cases = append(su.cases, stepCase(s, res))
		}
		tested = append(tested, su)
	}
	for _, name := range order {
		if !seen[name] {
			su := suite{name: name}
			for _, t := range byStep[name] {
				su.cases = append(su.cases, testRecord(t, nil, res))
			}
			tested = append(tested, su)
		}
	}
	all := append([]suite{steps}, tested...)
	if c, ok := verdictCase(run, all); ok {
		all[0].cases = append(all[0].cases, c)
	}
	if len(all[0].cases) == 0 {
		all = all[1:]
	}
	return all
}

// verdictCase is the case that carries a non-PASS verdict no other case
// shows (an infrastructure error before any step, incomplete counts).
func verdictCase(run *glv1.Run, suites []suite) (testCase, bool) {
	v := run.GetResult().GetStatus()
	if v == glv1.Verdict_VERDICT_PASS {
		return testCase{}, false
	}
	for _, s := range suites {
		if anyFailing(s.cases) {
			return testCase{}, false
		}
	}
	msg := firstNonEmpty(run.GetError(), run.GetResult().GetSummary(), "verification ended without a verdict")
	c := testCase{id: "greenlight/verdict", classname: stepsSuite, name: "verdict", outcome: errored,
		kind: verdictWord(v), message: clean(msg), isStep: true}
	if v == glv1.Verdict_VERDICT_FAIL {
		c.outcome = failed
	}
	return c, true
}

// stepCase is a step standing for itself.
func stepCase(s *glv1.StepResult, res *glv1.Result) testCase {
	c := testCase{
		id: s.GetName(), classname: stepsSuite + "." + strings.ToLower(display.Enum(s.GetPhase())), name: s.GetName(),
		step: s.GetName(), duration: s.GetDuration(), kind: statusWord(s.GetStatus()), isStep: true,
	}
	switch st := s.GetStatus(); {
	case st == glv1.StepStatus_STEP_STATUS_OK:
		c.outcome = passed
		return c
	case st == glv1.StepStatus_STEP_STATUS_SKIPPED || st == glv1.StepStatus_STEP_STATUS_UNSPECIFIED:
		c.outcome = skipped
		c.message = clean(firstNonEmpty(s.GetReason(), "not run"))
		return c
	case s.GetOptional():
		c.outcome = advisory
	case st == glv1.StepStatus_STEP_STATUS_CANCELED || st == glv1.StepStatus_STEP_STATUS_ERROR:
		c.outcome = errored
	default:
		c.outcome = failed
	}
	fs := stepFailures(res, s.GetName())
	c.message = clean(stepMessage(s, fs))
	if len(fs) > 0 {
		c.file, c.line = fs[0].GetFile(), fs[0].GetLine()
	}
	c.trace = clean(stepTrace(s, fs))
	return c
}

// stepMessage says why a step did not pass in one line, then its first
// failures.
func stepMessage(s *glv1.StepResult, fs []*glv1.Failure) string {
	var b strings.Builder
	fmt.Fprintf(&b, "step %s %s (exit %d)", s.GetName(), strings.ToLower(statusWord(s.GetStatus())), s.GetExitCode())
	if s.GetOptional() {
		b.WriteString(", advisory: it does not decide the verdict")
	}
	if r := s.GetReason(); r != "" {
		fmt.Fprintf(&b, ": %s", r)
	}
	for _, f := range fs {
		fmt.Fprintf(&b, "\n%s", failureLine(f))
	}
	return b.String()
}

// failureLine is "file:line: KIND: first line of the message".
func failureLine(f *glv1.Failure) string {
	parts := []string{}
	if loc := location(f.GetFile(), f.GetLine()); loc != "" {
		parts = append(parts, loc)
	}
	parts = append(parts, kindWord(f.GetKind()))
	if m := firstLine(f.GetMessage()); m != "" {
		parts = append(parts, m)
	}
	return strings.Join(parts, ": ")
}

// stepTrace is the command that ran and the end of its output.
func stepTrace(s *glv1.StepResult, fs []*glv1.Failure) string {
	var b strings.Builder
	fmt.Fprintf(&b, "$ %s\n", command(s))
	fmt.Fprintf(&b, "exit %d, %s", s.GetExitCode(), strings.ToLower(statusWord(s.GetStatus())))
	if t := lastLines(s.GetTail(), tailLines); t != "" {
		fmt.Fprintf(&b, "\n--- last lines of output ---\n%s", t)
	}
	return b.String()
}

// testRecord is one parsed test; step is nil when the run does not list
// the test's step.
func testRecord(t *glv1.TestCase, s *glv1.StepResult, res *glv1.Result) testCase {
	c := testCase{
		id: clean(t.GetId()), classname: clean(firstNonEmpty(t.GetSuite(), t.GetStep())), name: clean(firstNonEmpty(t.GetName(), t.GetId())),
		step: t.GetStep(), duration: t.GetDuration(), file: t.GetFile(), line: t.GetLine(), flaky: t.GetFlaky(),
		message: clean(t.GetMessage()),
	}
	switch t.GetStatus() {
	case glv1.TestStatus_TEST_STATUS_PASSED:
		c.outcome = passed
	case glv1.TestStatus_TEST_STATUS_SKIPPED, glv1.TestStatus_TEST_STATUS_UNSPECIFIED:
		c.outcome = skipped
	case glv1.TestStatus_TEST_STATUS_ERROR:
		c.outcome = errored
	default:
		c.outcome = failed
	}
	if c.flaky && (c.outcome == failed || c.outcome == errored) {
		// Failed first, passed on re-run: counted as passed, shown as flaky.
		c.outcome = passed
	}
	if s.GetOptional() && (c.outcome == failed || c.outcome == errored) {
		c.outcome = advisory
	}
	f := testFailure(res, t)
	switch {
	case f != nil:
		c.kind = kindWord(f.GetKind())
	case t.GetStatus() == glv1.TestStatus_TEST_STATUS_ERROR:
		c.kind = kindWord(glv1.FailureKind_FAILURE_KIND_TEST_ERROR)
	case t.GetStatus() == glv1.TestStatus_TEST_STATUS_FAILED:
		c.kind = kindWord(glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION)
	}
	if c.file == "" {
		c.file, c.line = f.GetFile(), f.GetLine()
	}
	if c.outcome != passed || c.flaky {
		c.trace = clean(testTrace(c, f))
	}
	return c
}

// testTrace is the failure's location, its frames and where it ran.
func testTrace(c testCase, f *glv1.Failure) string {
	var lines []string
	if loc := location(c.file, c.line); loc != "" {
		lines = append(lines, loc)
	}
	for _, fr := range f.GetFrames() {
		if fr.GetFile() == c.file && fr.GetLine() == c.line && fr.GetFunction() == "" {
			continue // the location itself
		}
		l := "  at " + location(fr.GetFile(), fr.GetLine())
		if fn := fr.GetFunction(); fn != "" {
			l = "  at " + fn + " (" + location(fr.GetFile(), fr.GetLine()) + ")"
		}
		lines = append(lines, l)
	}
	if ev := f.GetEvidence(); ev != nil {
		lines = append(lines, fmt.Sprintf("step %s exited %d", ev.GetStep(), ev.GetExitCode()))
	}
	if c.flaky {
		lines = append(lines, "flaky: failed first, passed when re-run")
	}
	return strings.Join(lines, "\n")
}

// testFailure is the failure recorded for test t, or nil.
func testFailure(res *glv1.Result, t *glv1.TestCase) *glv1.Failure {
	for _, f := range res.GetFailures() {
		if f.GetTest() == t.GetId() && (f.GetEvidence().GetStep() == "" || f.GetEvidence().GetStep() == t.GetStep()) {
			return f
		}
	}
	return nil
}

// stepFailures are the failures of step name that belong to no test.
func stepFailures(res *glv1.Result, name string) []*glv1.Failure {
	var out []*glv1.Failure
	for _, f := range res.GetFailures() {
		if f.GetEvidence().GetStep() == name && f.GetTest() == "" {
			out = append(out, f)
		}
	}
	return out
}

// stepBad reports whether a step ran and did not succeed.
func stepBad(s *glv1.StepResult) bool {
	switch s.GetStatus() {
	case glv1.StepStatus_STEP_STATUS_OK, glv1.StepStatus_STEP_STATUS_SKIPPED, glv1.StepStatus_STEP_STATUS_UNSPECIFIED:
		return false
	}
	return true
}

// anyFailing reports whether a case fails or errors.
func anyFailing(cs []testCase) bool {
	for _, c := range cs {
		if c.outcome == failed || c.outcome == errored {
			return true
		}
	}
	return false
}

// anyReported reports whether a case fails, errors or failed advisorily.
func anyReported(cs []testCase) bool {
	for _, c := range cs {
		if c.outcome == failed || c.outcome == errored || c.outcome == advisory {
			return true
		}
	}
	return false
}

// command is what a person would type for the step.
func command(s *glv1.StepResult) string {
	return firstNonEmpty(s.GetDisplayCommand(), s.GetCommand())
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// firstNonEmpty returns the first non-empty string.
func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
