// Package parse turns what a pipeline step printed into structured results:
// per-test records and counts, lint/typecheck issue counts, and failures with
// their stack frames, each tied to the step and a byte offset in its log.
//
// Parsing is a single streaming pass over the log: every line is offered to a
// set of small format parsers (go test -json and text, pytest, Python
// unittest, jest/vitest, mocha, node --test, uvu, AVA, cargo/libtest, Maven
// Surefire, ctest, compiler and linter diagnostics, Python syntax errors,
// tracebacks, the generic
// "N passed, N failed" line). Each keeps
// bounded state, so memory does not grow with the size of the log. Machine
// readable reports written by the step (JUnit XML, jest/vitest/mocha JSON) are
// preferred over log text when the caller passes them as artifacts.
package parse

import (
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Status is the outcome of one test.
type Status int

// Test outcomes, mirroring glv1.TestStatus.
const (
	StatusUnknown Status = iota
	StatusPassed
	StatusFailed
	StatusSkipped
	StatusError
)

// String names the status for logs and test failures.
func (s Status) String() string {
	switch s {
	case StatusPassed:
		return "passed"
	case StatusFailed:
		return "failed"
	case StatusSkipped:
		return "skipped"
	case StatusError:
		return "error"
	}
	return "unknown"
}

// failing reports whether the status counts against the step.
func (s Status) failing() bool { return s == StatusFailed || s == StatusError }

// Failing reports whether the status is a failure or an error.
func (s Status) Failing() bool { return s.failing() }

// Test is one parsed test record.
type Test struct {
	// ID is stable across runs: "pkg.TestName", "tests/test_x.py::test_y",
	// "src/sum.test.js > sum > adds", "tests::adds".
	ID       string
	Suite    string
	Name     string
	Status   Status
	Duration time.Duration
	// Message is the failure or skip message (capped).
	Message string
	File    string
	Line    int
	// Flaky marks a test that failed and then passed on re-run.
	Flaky bool
	// Frames of the failure, innermost first (failing tests only).
	Frames []Frame
	// Offset is the byte offset in the step log where the record was found
	// (-1 when it came from an artifact).
	Offset int64

	// kind is the failure kind the parser decided (0: classify the message).
	kind glv1.FailureKind
}

// Counts aggregates test outcomes of a step or run.
type Counts struct {
	Passed  int
	Failed  int
	Skipped int
	Errors  int
	// Flaky tests are counted in Passed (they passed on re-run), never in Failed.
	Flaky int
	// Unfinished tests are counted in Failed: they started but never
	// reported an outcome because the test binary died (panic, os.Exit,
	// timeout). Tests that had not started are not known at all, so a
	// non-zero Unfinished says the counts are incomplete.
	Unfinished int
}

// Total is the number of tests counted.
func (c Counts) Total() int { return c.Passed + c.Failed + c.Skipped + c.Errors }

// Add sums two counts.
func (c Counts) Add(o Counts) Counts {
	return Counts{
		Passed: c.Passed + o.Passed, Failed: c.Failed + o.Failed, Skipped: c.Skipped + o.Skipped,
		Errors: c.Errors + o.Errors, Flaky: c.Flaky + o.Flaky, Unfinished: c.Unfinished + o.Unfinished,
	}
}

// Frame is one stack/traceback frame.
type Frame struct {
	// File is relative to the workspace root for project frames and as printed otherwise.
	File   string
	Line   int
	Column int
	Func   string
	// Project is true for frames in the project's own code.
	Project bool
}

// Failure is one structured failure found in a step.
type Failure struct {
	// File, Line and Column locate the failure (workspace-relative); empty when unknown.
	File    string
	Line    int
	Column  int
	Kind    glv1.FailureKind
	Message string
	// Test is the failing test's ID for test failures.
	Test string
	// Frames are the failure's frames, innermost (nearest the failure) first.
	Frames []Frame
	// Offset is the byte offset of the evidence in the step log (-1: from an artifact).
	Offset int64
	// Flaky marks a test failure that passed on re-run.
	Flaky bool
	// Rule and Severity are a security finding's scanner rule (B602,
	// private-key) and its severity (high, medium, low).
	Rule, Severity string
	// Introduced marks a security finding a fix run's baseline did not
	// have.
	Introduced bool
}

// Format names of the parsers, as recorded in TestCounts.format.
const (
	FormatGoJSON        = "go-json"
	FormatGoText        = "go-text"
	FormatPytestJUnit   = "pytest-junit"
	FormatPytestSummary = "pytest-summary"
	FormatUnittest      = "unittest"
	FormatJestJSON      = "jest-json"
	FormatVitestJSON    = "vitest-json"
	FormatJestText      = "jest-text"
	FormatVitestText    = "vitest-text"
	FormatMochaJSON     = "mocha-json"
	FormatMocha         = "mocha"
	FormatNodeTAP       = "node-tap"
	FormatNodeSpec      = "node-spec"
	FormatUvu           = "uvu"
	FormatCTest         = "ctest"
	FormatUnity         = "unity"
	FormatSurefire      = "surefire"
	FormatSurefireLog   = "surefire-log"
	FormatJUnit         = "junit"
	FormatGeneric       = "generic"
	FormatUnparsed      = "unparsed"
)
