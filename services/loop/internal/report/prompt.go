package report

import (
	"fmt"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// promptLogLines is the log budget of a model prompt.
const promptLogLines = 120

// RenderPrompt renders a patch request for a model: the failing command,
// every failure with its exact message and frames, the numbered code
// windows, and the log tail cut head+tail with its error lines kept.
func RenderPrompt(req *glv1.PatchRequest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Fix request (attempt %d)\n\n", req.GetAttempt())
	fmt.Fprintf(&b, "## Failing command\n\n`%s` in `%s` exited with code %d.\n", req.GetFailingCommand(), dirOrRoot(req.GetWorkdir()), req.GetExitCode())
	if fs := req.GetFailures(); len(fs) > 0 {
		b.WriteString("\n## Failures\n\n")
		for i, f := range fs {
			writeFailure(&b, i+1, f, true)
		}
	}
	if ws := req.GetWindows(); len(ws) > 0 {
		b.WriteString("\n## Code around the failing frames\n\n")
		for _, w := range ws {
			fmt.Fprintf(&b, "### %d. `%s` lines %d–%d (focus %d)\n\n", w.GetRank(), w.GetFile(), w.GetStartLine(), w.GetEndLine(), w.GetFocusLine())
			fence(&b, "", strings.TrimRight(w.GetText(), "\n"))
		}
	}
	if t := req.GetLogTail(); t != "" {
		b.WriteString("\n## Log tail\n\n")
		fence(&b, "text", Cut(t, promptLogLines))
	}
	if cf := req.GetChangedFiles(); len(cf) > 0 {
		b.WriteString("\n## Files changed so far\n\n")
		for _, f := range cf {
			fmt.Fprintf(&b, "- `%s`\n", f)
		}
	}
	if g := req.GetConstraints(); g != nil {
		b.WriteString("\n## Constraints\n\n")
		if len(g.GetAllowedGlobs()) > 0 {
			fmt.Fprintf(&b, "- Only touch paths matching: %s\n", strings.Join(g.GetAllowedGlobs(), ", "))
		}
		if g.GetMaxChangedLines() > 0 {
			fmt.Fprintf(&b, "- Change at most %d lines.\n", g.GetMaxChangedLines())
		}
		if !g.GetAllowTestChanges() {
			b.WriteString("- Do not delete, skip or weaken tests.\n")
		}
		if !g.GetAllowConfigChanges() {
			b.WriteString("- Do not change verification config (greenlight.yaml, CI workflows, pytest.ini, conftest.py, " +
				"jest/vitest config, test scripts in package.json, the Makefile the checks run): fix the code.\n")
		}
	}
	if fb := req.GetFeedback(); fb != "" {
		b.WriteString("\n## Feedback on the previous patch\n\n")
		fence(&b, "text", fb)
	}
	b.WriteString("\nAnswer with a minimal unified diff inside <patch>…</patch>.\n")
	return b.String()
}

// writeFailure writes one failure; messages are quoted exactly, never summarized.
func writeFailure(b *strings.Builder, n int, f *glv1.Failure, frames bool) {
	loc := f.GetFile()
	if loc != "" && f.GetLine() > 0 {
		loc = fmt.Sprintf("%s:%d", loc, f.GetLine())
		if f.GetColumn() > 0 {
			loc = fmt.Sprintf("%s:%d", loc, f.GetColumn())
		}
	}
	fmt.Fprintf(b, "### %d. %s", n, display.EnumOr(f.GetKind(), "—"))
	if loc != "" {
		fmt.Fprintf(b, " at `%s`", loc)
	}
	if f.GetTest() != "" {
		fmt.Fprintf(b, " — test `%s`", f.GetTest())
	}
	if f.GetFlaky() {
		b.WriteString(" — flaky (passed on re-run)")
	}
	b.WriteString("\n\n")
	if ev := f.GetEvidence(); ev != nil {
		fmt.Fprintf(b, "Step `%s`: `%s` in `%s`, exit %d, log offset %d.\n\n", ev.GetStep(), ev.GetCommand(), dirOrRoot(ev.GetWorkdir()), ev.GetExitCode(), ev.GetLogOffset())
	}
	if m := f.GetMessage(); m != "" {
		fence(b, "text", m)
	}
	if frames {
		var proj []string
		for _, fr := range f.GetFrames() {
			if fr.GetProject() {
				proj = append(proj, fmt.Sprintf("- `%s:%d` %s", fr.GetFile(), fr.GetLine(), fr.GetFunction()))
			}
		}
		if len(proj) > 0 {
			b.WriteString("Frames (innermost first):\n\n" + strings.Join(proj, "\n") + "\n\n")
		}
	}
}

// fence writes text in a code fence long enough not to be closed by the text.
func fence(b *strings.Builder, lang, text string) {
	f := "```"
	for strings.Contains(text, f) {
		f += "`"
	}
	fmt.Fprintf(b, "%s%s\n%s\n%s\n\n", f, lang, text, f)
}

func dirOrRoot(d string) string {
	if d == "" || d == "." {
		return "."
	}
	return d
}
