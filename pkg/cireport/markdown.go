package cireport

import (
	"fmt"
	"html"
	"io"
	"strings"
	"unicode/utf8"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// Caps that keep the report short enough for a PR comment (65536
// characters) and a job summary (1 MiB).
const (
	maxFailingTests = 30
	maxEvidence     = 5
	evidenceLines   = 30
	cellWidth       = 120
	patchLines      = 400
)

// WriteMarkdown writes a compact report for a pull-request comment, a job
// summary or an issue (greenlight's one Markdown rendering of a run, also
// `greenlight show --markdown`): verdict, level, score and tests, a table
// of the steps, the failing tests with file:line, the first failures'
// evidence and, for a fix run, the patches it kept. Text from the sandbox
// goes into code spans and fenced blocks only, so a test name can neither
// format the page nor mention anyone.
func WriteMarkdown(w io.Writer, run *glv1.Run, opts Options) error {
	var b strings.Builder
	mdHeader(&b, run)
	mdSteps(&b, run.GetResult())
	mdPlan(&b, run.GetResult())
	mdFailingTests(&b, run)
	mdEvidence(&b, run.GetResult())
	mdPatches(&b, run)
	mdSecurity(&b, run.GetResult())
	mdCoverage(&b, run.GetResult())
	mdReview(&b, run.GetResult())
	if opts.ReportURL != "" {
		fmt.Fprintf(&b, "[Full report](%s)\n\n", strings.NewReplacer("(", "%28", ")", "%29", " ", "%20").Replace(opts.ReportURL))
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write markdown: %w", err)
	}
	return nil
}

// mdHeader is the verdict line and the numbers.
func mdHeader(b *strings.Builder, run *glv1.Run) {
	res := run.GetResult()
	v := verdictWord(res.GetStatus())
	icon := map[string]string{"PASS": "✅", "FAIL": "❌", "ERROR": "⚠️"}[v]
	fmt.Fprintf(b, "## %s greenlight %s\n\n", icon, v)
	if s := firstLine(res.GetSummary()); s != "" {
		fmt.Fprintf(b, "%s\n\n", mdText(clean(s)))
	}
	if v == "ERROR" && run.GetError() != "" {
		fmt.Fprintf(b, "Verification could not be carried out: %s\n\n", code(firstLine(clean(run.GetError()))))
	}
	if v == "PASS" {
		b.WriteString("**Execution passed**: every required command below really ran in the sandbox and exited 0.\n\n")
	}
	facts := []string{"**Level** " + levelWord(res.GetLevel())}
	// An ERROR verified nothing: a score stored with one (servers before
	// issue 11 kept 5.0, "needs human review") would read as a judgement.
	if sc := res.GetScore(); sc != nil && v != "ERROR" {
		facts = append(facts, fmt.Sprintf("**Score** %.1f/10", sc.GetTotal()))
	}
	if c := res.GetCounts(); c.GetTotal() > 0 || c.GetIncomplete() {
		facts = append(facts, "**Tests** "+countsText(c))
	}
	facts = append(facts, "**Run** "+code(run.GetId()))
	fmt.Fprintf(b, "%s\n\n", strings.Join(facts, " · "))
	if c := res.GetCounts(); c.GetIncomplete() && c.GetIncompleteReason() != "" {
		fmt.Fprintf(b, "**Counts incomplete:** %s\n\n", mdText(clean(firstLine(c.GetIncompleteReason()))))
	}
}

// mdSteps is the steps table.
func mdSteps(b *strings.Builder, res *glv1.Result) {
	if len(res.GetSteps()) == 0 {
		return
	}
	b.WriteString("| Step | Phase | Status | Exit | Duration | Tests |\n|---|---|---|---|---|---|\n")
	for _, s := range res.GetSteps() {
		tests := ""
		if c := s.GetCounts(); c.GetTotal() > 0 || c.GetIncomplete() {
			tests = countsText(c)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %d | %s | %s |\n", cell(code(clean(s.GetName()))), strings.ToLower(display.Enum(s.GetPhase())),
			stepBadge(s), s.GetExitCode(), human(s.GetDuration().AsDuration()), tests)
	}
	b.WriteString("\n")
}

// stepBadge is a step's status with an icon; advisory steps say so.
func stepBadge(s *glv1.StepResult) string {
	word := statusWord(s.GetStatus())
	icon := "❌"
	switch {
	case s.GetStatus() == glv1.StepStatus_STEP_STATUS_OK:
		icon = "✅"
	case !stepBad(s):
		icon = "⏭️"
	case s.GetOptional() || s.GetStatus() == glv1.StepStatus_STEP_STATUS_ERROR || s.GetStatus() == glv1.StepStatus_STEP_STATUS_CANCELED:
		icon = "⚠️"
	}
	if s.GetOptional() {
		word += " (advisory)"
	}
	return icon + " " + word
}

// mdFailingTests lists failing tests with file:line.
func mdFailingTests(b *strings.Builder, run *glv1.Run) {
	var rows []testCase
	for _, s := range collect(run) {
		for _, c := range s.cases {
			if !c.isStep && (c.outcome == failed || c.outcome == errored || c.outcome == advisory) {
				rows = append(rows, c)
			}
		}
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(b, "### Failing tests (%d)\n\n| Test | Location | Message |\n|---|---|---|\n", len(rows))
	for i, c := range rows {
		if i == maxFailingTests {
			fmt.Fprintf(b, "\n… and %d more\n", len(rows)-maxFailingTests)
			break
		}
		name := firstNonEmpty(c.id, c.name)
		if c.outcome == advisory {
			name += " (advisory)"
		}
		fmt.Fprintf(b, "| %s | %s | %s |\n", cell(code(name)), cell(code(location(c.file, c.line))), cell(code(clip(firstLine(c.message), cellWidth))))
	}
	b.WriteString("\n")
}

// mdEvidence shows the first failures: message, frames and the command.
func mdEvidence(b *strings.Builder, res *glv1.Result) {
	fs := res.GetFailures()
	if len(fs) == 0 {
		return
	}
	b.WriteString("### Failures\n\n")
	for i, f := range fs {
		if i == maxEvidence {
			fmt.Fprintf(b, "… and %d more failures: `greenlight show %s`\n\n", len(fs)-maxEvidence, res.GetRunId())
			break
		}
		summary := "<code>" + html.EscapeString(firstNonEmpty(location(f.GetFile(), f.GetLine()), f.GetEvidence().GetStep())) + "</code> " + kindWord(f.GetKind())
		if t := f.GetTest(); t != "" {
			summary += " <code>" + html.EscapeString(clean(t)) + "</code>"
		}
		switch {
		case f.GetFlaky():
			summary += " (flaky: passed when re-run)"
		case stepOptional(res, f.GetEvidence().GetStep()):
			summary += " (advisory)"
		}
		fmt.Fprintf(b, "<details><summary>%s</summary>\n\n", summary)
		b.WriteString(fence("text", evidenceText(f)))
		if ev := f.GetEvidence(); ev != nil {
			fmt.Fprintf(b, "Step %s ran %s and exited %d.\n\n", code(ev.GetStep()), code(clip(stepCommand(res, ev), cellWidth)), ev.GetExitCode())
		}
		b.WriteString("</details>\n\n")
	}
}

// mdPatches shows the patches a fix run kept (applied and not rolled
// back): together they are the change the verdict is about.
func mdPatches(b *strings.Builder, run *glv1.Run) {
	for _, p := range run.GetPatches() {
		if !p.GetApplied() || p.GetRolledBack() {
			continue
		}
		fmt.Fprintf(b, "### Patch %d (+%d −%d)\n\n", p.GetAttempt(), p.GetLinesAdded(), p.GetLinesRemoved())
		lines := strings.Split(strings.TrimRight(clean(p.GetDiff()), "\n"), "\n")
		if len(lines) > patchLines {
			lines = append(lines[:patchLines], fmt.Sprintf("… %d more lines: greenlight show %s", len(lines)-patchLines, run.GetId()))
		}
		b.WriteString(fence("diff", strings.Join(lines, "\n")))
	}
}

// evidenceText is a failure's message and frames.
func evidenceText(f *glv1.Failure) string {
	msg := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(clean(f.GetMessage()))
	lines := strings.Split(strings.TrimRight(msg, "\n"), "\n")
	if len(lines) > evidenceLines {
		lines = append(lines[:evidenceLines], fmt.Sprintf("… %d more lines", len(lines)-evidenceLines))
	}
	for _, fr := range f.GetFrames() {
		if fr.GetFile() == f.GetFile() && fr.GetLine() == f.GetLine() && fr.GetFunction() == "" {
			continue // the location itself
		}
		l := "  at " + location(fr.GetFile(), fr.GetLine())
		if fn := fr.GetFunction(); fn != "" {
			l += " in " + fn
		}
		lines = append(lines, clean(l))
	}
	return strings.Join(lines, "\n")
}

// stepCommand is the command of the evidence's step as a person would
// type it (the evidence carries the command that ran).
func stepCommand(res *glv1.Result, ev *glv1.Evidence) string {
	for _, s := range res.GetSteps() {
		if s.GetName() == ev.GetStep() {
			return clean(command(s))
		}
	}
	return clean(ev.GetCommand())
}

// code is a Markdown code span holding s literally, whatever backticks it
// contains; "" stays empty.
func code(s string) string {
	if s == "" {
		return ""
	}
	ticks := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return ticks + s + ticks
}

// fence is a fenced block of lang holding s literally.
func fence(lang, s string) string {
	ticks := strings.Repeat("`", max(3, longestRun(s, '`')+1))
	return ticks + lang + "\n" + s + "\n" + ticks + "\n\n"
}

// cell keeps a table cell on one line with its pipes literal.
func cell(s string) string {
	return strings.NewReplacer("\r", " ", "\n", " ", "|", `\|`).Replace(s)
}

// mdText escapes Markdown and HTML in plain text: inline syntax
// anywhere, block syntax (heading, list, quote) at the start.
func mdText(s string) string {
	var b strings.Builder
	for i, r := range s {
		if strings.ContainsRune("\\`*_{}[]<>|~@&!", r) || (i == 0 && strings.ContainsRune("#+-=>", r)) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// clip shortens s to n runes with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c rune) int {
	best, cur := 0, 0
	for _, r := range s {
		if r == c {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}
