package engine

import (
	"fmt"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
	"github.com/greenlight-dev/greenlight/services/loop/internal/report"
)

// Sizes of the evidence quoted in memos and fix instructions.
const (
	memoErrorLines = 40
	memoFailures   = 5
)

// memoInput is what a stop memo is written from.
type memoInput struct {
	runID       string
	v           *verification
	attempts    int32
	maxAttempts int32
	// reason says why the run stopped, in words.
	reason  string
	changed []string
	patches []*glv1.PatchOutcome
}

// stopMemo is the seeds' handoffs/stop.md: what failed, how many attempts
// were made, the last error lines, and what to do next.
func stopMemo(in memoInput) string {
	var b strings.Builder
	res := in.v.result
	fmt.Fprintf(&b, "# Stop memo: run %s\n\n", in.runID)
	fmt.Fprintf(&b, "**Stopped:** %s.\n\n", in.reason)
	fmt.Fprintf(&b, "**Verdict:** %s\n\n", res.GetSummary())
	fmt.Fprintf(&b, "**Attempts:** %d of %d.", in.attempts, in.maxAttempts)
	if sc := res.GetScore(); sc != nil {
		fmt.Fprintf(&b, " **Score:** %.1f/10 (%s).", sc.GetTotal(), display.Enum(sc.GetLevel()))
	}
	b.WriteString("\n\n## What failed\n\n")
	o, failed := firstFailure(in.v.outcomes)
	switch {
	case failed:
		fmt.Fprintf(&b, "`%s` in `%s` (step %s) ended %s with exit code %d.\n",
			o.Result.GetCommand(), dirOrRoot(o.Result.GetWorkdir()), o.Name(), stepStatusName(o.Status()), o.Result.GetExitCode())
	case in.v.infra != "":
		fmt.Fprintf(&b, "The verification could not be carried out: %s\n", in.v.infra)
	default:
		b.WriteString("No step failed by itself; see the verdict above.\n")
	}
	for _, s := range in.v.skipped {
		fmt.Fprintf(&b, "- %s skipped: %s\n", tierName(s.GetTier()), s.GetReason())
	}
	writeFailures(&b, res.GetFailures())
	if failed {
		if tail := lastLines(parse.Readable(o.Result.GetTail()), memoErrorLines); tail != "" {
			fmt.Fprintf(&b, "\n## Last error lines\n\n```text\n%s\n```\n", tail)
		}
	}
	writePatches(&b, in.patches)
	if len(in.changed) > 0 {
		b.WriteString("\n## Changed files\n\n")
		for _, f := range in.changed {
			fmt.Fprintf(&b, "- `%s`\n", f)
		}
	}
	b.WriteString("\n## Next steps\n\n")
	if failed {
		fmt.Fprintf(&b, "1. Reproduce: `cd %s && %s`\n", dirOrRoot(o.Result.GetWorkdir()), o.Result.GetCommand())
		b.WriteString("2. Fix the first failure above (the innermost project frame is the likeliest place).\n")
	} else {
		b.WriteString("1. Check the infrastructure message above (images, Docker engine, budgets), then re-run.\n")
	}
	b.WriteString("3. Verify again; the step logs of this run are listed under artifacts.\n")
	return b.String()
}

// fixInstructions are the seeds' fixInstructions for the implementer:
// failed command, error output, changed files and attempt number.
func fixInstructions(v *verification, attempt, maxAttempts int32, changed []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Attempt %d of %d failed: %s\n", attempt, maxAttempts, v.result.GetSummary())
	if o, ok := firstFailure(v.outcomes); ok {
		fmt.Fprintf(&b, "\nFailed command: `%s` in `%s` (exit %d)\n", o.Result.GetCommand(), dirOrRoot(o.Result.GetWorkdir()), o.Result.GetExitCode())
		if tail := lastLines(parse.Readable(o.Result.GetTail()), memoErrorLines); tail != "" {
			fmt.Fprintf(&b, "\nError output:\n```text\n%s\n```\n", tail)
		}
	} else if v.infra != "" {
		fmt.Fprintf(&b, "\nThe verification could not be carried out: %s\n", v.infra)
	}
	if len(changed) > 0 {
		fmt.Fprintf(&b, "\nChanged files: %s\n", strings.Join(changed, ", "))
	}
	return b.String()
}

// writeFailures lists the first failures with their location and message.
func writeFailures(b *strings.Builder, fs []*glv1.Failure) {
	if len(fs) == 0 {
		return
	}
	b.WriteString("\n## Failures\n\n")
	for i, f := range fs {
		if i == memoFailures {
			fmt.Fprintf(b, "- … and %d more (see the result's failures)\n", len(fs)-memoFailures)
			break
		}
		loc := f.GetFile()
		if loc != "" && f.GetLine() > 0 {
			loc = fmt.Sprintf("%s:%d", loc, f.GetLine())
		}
		fmt.Fprintf(b, "- %s", strings.ToLower(display.Enum(f.GetKind())))
		if loc != "" {
			fmt.Fprintf(b, " at `%s`", loc)
		}
		if f.GetTest() != "" {
			fmt.Fprintf(b, " in `%s`", f.GetTest())
		}
		if m := firstLine(f.GetMessage()); m != "" {
			fmt.Fprintf(b, ": %s", m)
		}
		b.WriteString("\n")
	}
}

// writePatches tabulates a repair run's patch attempts.
func writePatches(b *strings.Builder, ps []*glv1.PatchOutcome) {
	if len(ps) == 0 {
		return
	}
	b.WriteString("\n## Patch attempts\n\n| attempt | applied | rolled back | +/- | failing before → after | reason |\n|---|---|---|---|---|---|\n")
	for _, p := range ps {
		fmt.Fprintf(b, "| %d | %t | %t | +%d/-%d | %d → %d | %s |\n", p.GetAttempt(), p.GetApplied(), p.GetRolledBack(),
			p.GetLinesAdded(), p.GetLinesRemoved(), p.GetFailingBefore(), p.GetFailingAfter(),
			strings.ReplaceAll(firstLine(p.GetReason()), "|", "\\|"))
	}
}

// lastLines shortens a step tail to about n lines, keeping its head, its
// end and the error lines in between (report.Cut), never summarizing.
func lastLines(text string, n int) string {
	return report.Cut(strings.TrimRight(text, "\n"), n)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func dirOrRoot(d string) string {
	if d == "" || d == "." {
		return "."
	}
	return d
}

func stepStatusName(s glv1.StepStatus) string {
	return strings.ToLower(display.Enum(s))
}
