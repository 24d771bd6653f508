package provider

import (
	"fmt"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// Prompt size bounds: the log tail and each code window are cut in the
// middle (head and tail kept, with a marker) beyond these.
const (
	maxLogTailBytes = 12 << 10
	maxWindowBytes  = 8 << 10
	maxMessageBytes = 4 << 10
	maxFailures     = 20
)

// systemPrompt tells the model the patch protocol and its rules.
func systemPrompt(g *glv1.Guardrails) string {
	var b strings.Builder
	b.WriteString(`You fix failing checks with MINIMAL, CORRECT patches.

Reply with exactly one patch inside <patch> and </patch>, as a unified diff:

<patch>
--- a/path/to/file.py
+++ b/path/to/file.py
@@ -12,3 +12,3 @@
 unchanged line
-old line
+new line
 unchanged line
</patch>

Rules:
- Change only files that appear in the failing frames or code windows.
- Prefer changes of 1 to 10 lines; never rewrite or reformat unrelated code.
- Keep imports intact unless the fix needs them.
- Context lines must match the file exactly (copy them from the code windows, without the line numbers); include about 3 lines of context around each change.
- Paths are relative to the workspace root.
- Do not edit, delete or skip tests, and do not edit lockfiles: the tests define correct behaviour; fix the code under test.
- If you cannot find a fix, reply with an empty <patch></patch>.
`)
	if g != nil {
		if globs := g.GetAllowedGlobs(); len(globs) > 0 {
			fmt.Fprintf(&b, "- Only these paths may change: %s.\n", strings.Join(globs, ", "))
		}
		if g.GetMaxChangedLines() > 0 {
			fmt.Fprintf(&b, "- At most %d changed lines (added plus removed).\n", g.GetMaxChangedLines())
		}
	}
	return b.String()
}

// userPrompt renders the request's evidence: the failing command and
// where it ran, its exit code, the failures with their exact messages,
// the code windows, the changed files, the log tail and the reason the
// previous patch failed. A prompt the loop already rendered is used as is.
func userPrompt(req *glv1.PatchRequest) string {
	if req.GetPrompt() != "" {
		return req.GetPrompt()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Attempt %d. This check fails:\n\n", req.GetAttempt())
	fmt.Fprintf(&b, "- command: `%s`\n- workdir: `%s`\n- exit code: %d\n", req.GetFailingCommand(), orRoot(req.GetWorkdir()), req.GetExitCode())
	if fb := req.GetFeedback(); fb != "" {
		fmt.Fprintf(&b, "\nYour previous patch was not accepted:\n\n%s\n", Fence(CutMiddle(fb, maxMessageBytes)))
	}
	writeFailures(&b, req.GetFailures())
	writeWindows(&b, req.GetWindows())
	if files := req.GetChangedFiles(); len(files) > 0 {
		fmt.Fprintf(&b, "\nFiles changed by the change under verification: %s\n", strings.Join(files, ", "))
	}
	if tail := req.GetLogTail(); tail != "" {
		fmt.Fprintf(&b, "\nOutput of the failing command (tail):\n\n%s\n", Fence(CutMiddle(tail, maxLogTailBytes)))
	}
	b.WriteString("\nWrite the smallest patch that makes this check pass.\n")
	return b.String()
}

// writeFailures renders the failures as a table, then each message
// verbatim (cut in the middle only when very long) with its frames.
func writeFailures(b *strings.Builder, failures []*glv1.Failure) {
	if len(failures) == 0 {
		return
	}
	shown := failures[:min(len(failures), maxFailures)]
	b.WriteString("\nFailures:\n\n| # | location | kind | test |\n| --- | --- | --- | --- |\n")
	for i, f := range shown {
		loc := f.GetFile()
		if f.GetLine() > 0 {
			loc = fmt.Sprintf("%s:%d", loc, f.GetLine())
		}
		kind := strings.ToLower(display.Enum(f.GetKind()))
		fmt.Fprintf(b, "| %d | %s | %s | %s |\n", i+1, cell(orDash(loc)), kind, cell(orDash(f.GetTest())))
	}
	if len(failures) > len(shown) {
		fmt.Fprintf(b, "\n(%d more failures not shown)\n", len(failures)-len(shown))
	}
	for i, f := range shown {
		if msg := f.GetMessage(); msg != "" {
			fmt.Fprintf(b, "\nFailure %d message:\n\n%s\n", i+1, Fence(CutMiddle(msg, maxMessageBytes)))
		}
		if frames := projectFrames(f); frames != "" {
			fmt.Fprintf(b, "\nFailure %d frames (innermost first): %s\n", i+1, frames)
		}
	}
}

// projectFrames lists a failure's project frames as file:line (function).
func projectFrames(f *glv1.Failure) string {
	var parts []string
	for _, fr := range f.GetFrames() {
		if !fr.GetProject() {
			continue
		}
		s := fmt.Sprintf("%s:%d", fr.GetFile(), fr.GetLine())
		if fr.GetFunction() != "" {
			s += " (" + fr.GetFunction() + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// writeWindows renders the code windows, most likely location first.
func writeWindows(b *strings.Builder, windows []*glv1.CodeWindow) {
	for _, w := range windows {
		fmt.Fprintf(b, "\nCode of %s, lines %d-%d (line %d is the likely fault; the numbers are not part of the file):\n\n%s\n",
			w.GetFile(), w.GetStartLine(), w.GetEndLine(), w.GetFocusLine(), Fence(CutMiddle(w.GetText(), maxWindowBytes)))
	}
}

// CutMiddle keeps the head and the tail of s within max bytes, cutting
// at line boundaries and saying how much was left out, so that the first
// error and the last lines both survive.
func CutMiddle(s string, max int) string {
	if len(s) <= max {
		return s
	}
	head, tail := s[:max/3], s[len(s)-(max-max/3):]
	if i := strings.LastIndexByte(head, '\n'); i > 0 {
		head = head[:i+1]
	}
	if i := strings.IndexByte(tail, '\n'); i >= 0 && i < len(tail)-1 {
		tail = tail[i+1:]
	}
	return fmt.Sprintf("%s[… %d bytes cut …]\n%s", head, len(s)-len(head)-len(tail), tail)
}

// Fence wraps text in a Markdown fence longer than any it contains, so
// that quoted (untrusted) text cannot close it; the reviewer's prompt uses
// it too.
func Fence(s string) string {
	f := "```"
	for strings.Contains(s, f) {
		f += "`"
	}
	return f + "\n" + strings.TrimRight(s, "\n") + "\n" + f
}

// cell makes text safe for a one-line table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "<br>")
}

func orRoot(s string) string {
	if s == "" {
		return "."
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
