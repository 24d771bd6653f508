package cireport

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// GitHub Actions reads workflow commands from a step's standard output, one
// a line (https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands,
// "Setting an error message", "Setting a warning message", "Setting a
// notice message"):
//
//	::error file={name},line={line},col={col},title={title}::{message}
//
// The command's data and property values are escaped as the Actions
// toolkit escapes them (actions/toolkit, packages/core/src/command.ts:
// escapeData and escapeProperty), which is what the runner un-escapes.

// escapeData escapes a command's message: % first, so the escapes
// themselves survive.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a property value: as data, plus : and , which
// separate properties.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// annotation is one error, warning or notice workflow command.
type annotation struct {
	command   string // error, warning, notice
	file      string
	line, col int32
	title     string
	message   string
}

// String renders the workflow command (without a newline).
func (a annotation) String() string {
	var props []string
	if a.file != "" {
		props = append(props, "file="+escapeProperty(a.file))
		if a.line > 0 {
			props = append(props, "line="+strconv.Itoa(int(a.line)))
			if a.col > 0 {
				props = append(props, "col="+strconv.Itoa(int(a.col)))
			}
		}
	}
	if a.title != "" {
		props = append(props, "title="+escapeProperty(a.title))
	}
	head := "::" + a.command
	if len(props) > 0 {
		head += " " + strings.Join(props, ",")
	}
	return head + "::" + escapeData(a.message)
}

// WriteGitHub writes run as GitHub Actions annotations: an error per
// failure with its file and line (a warning for an advisory check or a
// flaky test), an error per failed step that no failure explains, and a
// notice with the verdict last.
func WriteGitHub(w io.Writer, run *glv1.Run) error {
	for _, a := range annotations(run) {
		if _, err := fmt.Fprintln(w, a.String()); err != nil {
			return fmt.Errorf("write github annotations: %w", err)
		}
	}
	return nil
}

// annotations lists the workflow commands for run.
func annotations(run *glv1.Run) []annotation {
	res := run.GetResult()
	var out []annotation
	explainedTest := map[string]bool{}
	explainedStep := map[string]bool{}
	for _, f := range res.GetFailures() {
		explainedTest[f.GetTest()] = true
		explainedStep[f.GetEvidence().GetStep()] = true
		out = append(out, failureAnnotation(res, f))
	}
	for _, s := range collect(run) {
		for _, c := range s.cases {
			if explained(c, explainedTest, explainedStep) {
				continue
			}
			if a, ok := caseAnnotation(c); ok {
				out = append(out, a)
			}
		}
	}
	return append(out, verdictAnnotation(run))
}

// explained reports whether a failure annotation already covers c.
func explained(c testCase, tests, steps map[string]bool) bool {
	if c.isStep {
		return steps[c.step] && c.step != ""
	}
	return tests[c.id]
}

// failureAnnotation annotates one failure.
func failureAnnotation(res *glv1.Result, f *glv1.Failure) annotation {
	a := annotation{command: "error", file: f.GetFile(), line: f.GetLine(), col: f.GetColumn(),
		message: clean(strings.TrimSpace(firstNonEmpty(f.GetMessage(), ruleText[f.GetKind()])))}
	if failureLevel(res, f) == "warning" {
		a.command = "warning"
	}
	switch {
	case f.GetTest() != "" && f.GetFlaky():
		a.title = "greenlight: flaky test " + clean(f.GetTest())
	case f.GetTest() != "":
		a.title = "greenlight: " + clean(f.GetTest())
	default:
		a.title = fmt.Sprintf("greenlight: %s (%s)", f.GetEvidence().GetStep(), kindWord(f.GetKind()))
	}
	if stepOptional(res, f.GetEvidence().GetStep()) {
		a.title += " (advisory)"
	}
	return a
}

// caseAnnotation annotates a failing test or step no failure explains,
// and a flaky test.
func caseAnnotation(c testCase) (annotation, bool) {
	a := annotation{command: "error", file: c.file, line: c.line, message: firstNonEmpty(c.message, c.kind)}
	switch {
	case c.isStep && c.step == "": // the verdict itself (cases.go verdictCase)
		a.title = "greenlight: verdict " + c.kind
	case c.isStep:
		a.title = "greenlight: step " + c.name + " " + strings.ToLower(c.kind)
		a.message = strings.TrimSpace(firstNonEmpty(c.message+"\n"+c.trace, c.kind))
	default:
		a.title = "greenlight: " + firstNonEmpty(c.id, c.name)
	}
	switch {
	case c.outcome == failed || c.outcome == errored:
	case c.outcome == advisory:
		a.command = "warning"
		a.title += " (advisory)"
	case c.flaky:
		a.command = "warning"
		a.title = "greenlight: flaky test " + firstNonEmpty(c.id, c.name)
		a.message = firstNonEmpty(c.message, "failed first, passed when re-run")
	default:
		return annotation{}, false
	}
	return a, true
}

// verdictAnnotation is the closing notice: verdict, level, score, tests.
func verdictAnnotation(run *glv1.Run) annotation {
	res := run.GetResult()
	v := verdictWord(res.GetStatus())
	parts := []string{firstNonEmpty(clean(firstLine(res.GetSummary())), v)}
	if v == "ERROR" && run.GetError() != "" {
		parts = append(parts, clean(firstLine(run.GetError())))
	}
	parts = append(parts, "level "+levelWord(res.GetLevel()))
	if sc := res.GetScore(); sc != nil {
		parts = append(parts, fmt.Sprintf("score %.1f/10", sc.GetTotal()))
	}
	if c := res.GetCounts(); c.GetTotal() > 0 {
		parts = append(parts, countsText(c))
	}
	parts = append(parts, "run "+run.GetId())
	return annotation{command: "notice", title: "greenlight " + v, message: strings.Join(parts, "; ")}
}

// countsText is "2 passed, 1 failed of 3" with skipped, errors and flaky
// when there are any.
func countsText(c *glv1.TestCounts) string {
	s := fmt.Sprintf("%d passed, %d failed", c.GetPassed(), c.GetFailed())
	for _, x := range []struct {
		n    int32
		word string
	}{{c.GetErrors(), "errors"}, {c.GetSkipped(), "skipped"}, {c.GetFlaky(), "flaky"}} {
		if x.n > 0 {
			s += fmt.Sprintf(", %d %s", x.n, x.word)
		}
	}
	s += fmt.Sprintf(" of %d", c.GetTotal())
	if c.GetIncomplete() {
		s += " (incomplete)"
	}
	return s
}

// AppendStepSummary appends the Markdown report to the job summary file
// GitHub names in $GITHUB_STEP_SUMMARY ("Adding a job summary" in the
// workflow commands documentation). An empty path writes nothing.
func AppendStepSummary(path string, run *glv1.Run, opts Options) error {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("job summary: %w", err)
	}
	if err := WriteMarkdown(f, run, opts); err != nil {
		_ = f.Close()
		return fmt.Errorf("job summary: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("job summary: %w", err)
	}
	return nil
}
