package summary

import (
	"fmt"
	"strings"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/progress"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/termtext"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/contract"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// Markdown renders a finished run for pasting into a pull request or an
// issue: verdict, steps, tests, failures, score, applied patches and the
// tail of the log.
func Markdown(run *glv1.Run, reportURL string) string {
	// Names, messages and the log tail come from the sandbox and the
	// repository: no control sequence may reach a terminal or a page.
	return termtext.Clean(markdown(run, reportURL))
}

func markdown(run *glv1.Run, reportURL string) string {
	res := run.GetResult()
	var b strings.Builder
	fmt.Fprintf(&b, "## greenlight %s — run `%s`\n\n", contract.Verdict(res.GetStatus()), run.GetId())
	if s := firstLine(res.GetSummary()); s != "" {
		fmt.Fprintf(&b, "%s\n\n", s)
	}
	if res.GetStatus() == glv1.Verdict_VERDICT_PASS {
		b.WriteString("**Execution passed**: every required command below really ran in the sandbox and exited 0.\n\n")
	}
	if steps := res.GetSteps(); len(steps) > 0 {
		b.WriteString("| # | Step | Command | Status | Exit | Duration | Cache | Tests |\n|---|---|---|---|---|---|---|---|\n")
		for i, s := range steps {
			cache, tests := "", ""
			if s.GetCacheHit() {
				cache = "hit"
			}
			if c := s.GetCounts(); c.GetTotal() > 0 || c.GetIncomplete() {
				tests = progress.Counts(c)
			}
			fmt.Fprintf(&b, "| %d | %s | `%s` | %s | %d | %s | %s | %s |\n", i+1, s.GetName(), mdCell(display.Brief(s)),
				progress.StepStatus(s.GetStatus()), s.GetExitCode(), progress.Duration(s.GetDuration().AsDuration()), cache, tests)
		}
		b.WriteString("\n")
	}
	if c := res.GetCounts(); c.GetTotal() > 0 || c.GetIncomplete() {
		fmt.Fprintf(&b, "**Tests:** %s of %d\n\n", progress.Counts(c), c.GetTotal())
		if c.GetIncomplete() {
			fmt.Fprintf(&b, "**Counts incomplete:** %s\n\n", mdCell(c.GetIncompleteReason()))
		}
	}
	if fs := res.GetFailures(); len(fs) > 0 {
		b.WriteString("### Failures\n\n")
		for _, f := range fs {
			fmt.Fprintf(&b, "- `%s` %s", Location(f), display.Enum(f.GetKind()))
			if f.GetTest() != "" {
				fmt.Fprintf(&b, " `%s`", f.GetTest())
			}
			if m := firstLine(f.GetMessage()); m != "" {
				fmt.Fprintf(&b, ": %s", m)
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	if s := shownScore(res); s != nil {
		fmt.Fprintf(&b, "**Score:** %.1f/10, level %s\n\n", s.GetTotal(), progress.Level(res.GetLevel()))
	}
	for _, p := range AppliedPatches(run) {
		fmt.Fprintf(&b, "### Patch %d (+%d −%d)\n\n```diff\n%s\n```\n\n", p.GetAttempt(), p.GetLinesAdded(), p.GetLinesRemoved(), strings.TrimRight(p.GetDiff(), "\n"))
	}
	if t := res.GetTailLog(); t != "" {
		fmt.Fprintf(&b, "<details><summary>Tail log</summary>\n\n```text\n%s\n```\n\n</details>\n", strings.TrimRight(t, "\n"))
	}
	if reportURL != "" {
		fmt.Fprintf(&b, "\n[Full report](%s)\n", reportURL)
	}
	return b.String()
}

// AppliedPatches returns the patches that are part of the run's final
// snapshot (applied and not rolled back), in order.
func AppliedPatches(run *glv1.Run) []*glv1.PatchOutcome {
	var out []*glv1.PatchOutcome
	for _, p := range run.GetPatches() {
		if p.GetApplied() && !p.GetRolledBack() {
			out = append(out, p)
		}
	}
	return out
}

// mdCell keeps a table cell on one line and its pipes literal.
func mdCell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\n", " "), "|", `\|`)
}
