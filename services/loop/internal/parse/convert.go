package parse

import (
	"strings"
	"unicode"

	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// CountsProto converts counts to the wire message.
func CountsProto(c Counts, format string, omitted int) *glv1.TestCounts {
	return &glv1.TestCounts{
		Passed: int32(c.Passed), Failed: int32(c.Failed), Skipped: int32(c.Skipped), Errors: int32(c.Errors),
		Total: int32(c.Total()), Flaky: int32(c.Flaky), Format: format, Omitted: int32(omitted),
	}
}

// StatusProto converts a test status.
func StatusProto(s Status) glv1.TestStatus {
	switch s {
	case StatusPassed:
		return glv1.TestStatus_TEST_STATUS_PASSED
	case StatusFailed:
		return glv1.TestStatus_TEST_STATUS_FAILED
	case StatusSkipped:
		return glv1.TestStatus_TEST_STATUS_SKIPPED
	case StatusError:
		return glv1.TestStatus_TEST_STATUS_ERROR
	}
	return glv1.TestStatus_TEST_STATUS_UNSPECIFIED
}

// TestProto converts one test record of step.
func TestProto(t Test, step string) *glv1.TestCase {
	return &glv1.TestCase{
		Id: clean(t.ID), Suite: clean(t.Suite), Name: clean(t.Name), Status: StatusProto(t.Status),
		Duration: durationpb.New(t.Duration), Message: clean(t.Message), File: clean(t.File), Line: int32(t.Line),
		Flaky: t.Flaky, Step: step,
	}
}

// FrameProto converts a frame.
func FrameProto(f Frame) *glv1.Frame {
	return &glv1.Frame{File: clean(f.File), Line: int32(f.Line), Column: int32(f.Column), Function: clean(f.Func), Project: f.Project}
}

// FailureProto converts a failure, attaching the step evidence with the
// failure's own log offset.
func FailureProto(f Failure, ev *glv1.Evidence) *glv1.Failure {
	out := &glv1.Failure{
		File: clean(f.File), Line: int32(f.Line), Column: int32(f.Column), Kind: f.Kind,
		Message: clean(f.Message), Test: clean(f.Test), Flaky: f.Flaky,
		Rule: clean(f.Rule), Severity: f.Severity, Introduced: f.Introduced,
	}
	if ev != nil {
		e := &glv1.Evidence{Step: ev.GetStep(), Command: ev.GetCommand(), Workdir: ev.GetWorkdir(), ExitCode: ev.GetExitCode(),
			LogOffset: f.Offset, LogDigest: ev.GetLogDigest()}
		out.Evidence = e
	}
	for _, fr := range f.Frames {
		out.Frames = append(out.Frames, FrameProto(fr))
	}
	return out
}

// FailureFromProto converts a wire failure back to the domain type (for
// localization of stored results).
func FailureFromProto(f *glv1.Failure) Failure {
	out := Failure{File: f.GetFile(), Line: int(f.GetLine()), Column: int(f.GetColumn()), Kind: f.GetKind(),
		Message: f.GetMessage(), Test: f.GetTest(), Offset: f.GetEvidence().GetLogOffset(), Flaky: f.GetFlaky(),
		Rule: f.GetRule(), Severity: f.GetSeverity(), Introduced: f.GetIntroduced()}
	for _, fr := range f.GetFrames() {
		out.Frames = append(out.Frames, Frame{File: fr.GetFile(), Line: int(fr.GetLine()), Column: int(fr.GetColumn()), Func: fr.GetFunction(), Project: fr.GetProject()})
	}
	return out
}

// TestsParsedProto is the TestsParsed event of a step report.
func (r *StepReport) TestsParsedProto() *glv1.TestsParsed {
	return &glv1.TestsParsed{Step: r.Step, Counts: r.CountsProto(), Failures: r.FailuresProto(), LintIssues: int32(r.LintIssues)}
}

// CountsProto is the step's counts message.
func (r *StepReport) CountsProto() *glv1.TestCounts {
	c := CountsProto(r.Counts, r.Format, r.TestsOmitted)
	c.Incomplete, c.IncompleteReason = r.Incomplete, r.IncompleteReason
	return c
}

// FailuresProto converts the step's failures.
func (r *StepReport) FailuresProto() []*glv1.Failure {
	out := make([]*glv1.Failure, 0, len(r.Failures))
	for _, f := range r.Failures {
		out = append(out, FailureProto(f, r.Evidence))
	}
	return out
}

// TestsProto converts the step's kept test records.
func (r *StepReport) TestsProto() []*glv1.TestCase {
	out := make([]*glv1.TestCase, 0, len(r.Tests))
	for _, t := range r.Tests {
		out = append(out, TestProto(t, r.Step))
	}
	return out
}

// clean makes s valid for a protobuf string: valid UTF-8 and no control
// characters other than newline and tab (logs may carry binary garbage).
func clean(s string) string {
	ok := true
	for _, r := range s {
		if r == unicode.ReplacementChar || (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	s = strings.ToValidUTF8(s, "�")
	return strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f {
			return '�'
		}
		return r
	}, s)
}
