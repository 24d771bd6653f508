package summary

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/progress"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/termtext"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// Options tune Text.
type Options struct {
	// Color uses ANSI colors for the banner (terminals only).
	Color bool
	// ReportURL is the run's report page ("" when none is served).
	ReportURL string
	// ReportNeedsToken says the report page's gateway requires a token:
	// the line says how the page gets it.
	ReportNeedsToken bool
	// Hint is printed when there is no report URL (e.g. how to see the
	// run again).
	Hint string
	// MaxFailures caps the failures listed (0: 20).
	MaxFailures int
	// Program is how the user runs greenlight, for the line that says
	// how to see the failures left out ("" is "greenlight").
	Program string
}

// maxMessageWidth clips a failure message to this many terminal cells.
const maxMessageWidth = 200

// Text writes the summary of a finished run. Everything but the banner's
// own colors may come from the sandbox or the repository (step names,
// failure messages, test names, reasons), so it is written through
// termtext.Clean.
func Text(w io.Writer, run *glv1.Run, opts Options) {
	banner(w, run, opts.Color)
	var b strings.Builder
	text(&b, run, opts)
	_, _ = io.WriteString(w, termtext.Clean(b.String()))
}

// text writes the summary below the banner.
func text(w io.Writer, run *glv1.Run, opts Options) {
	res := run.GetResult()
	if steps := res.GetSteps(); len(steps) > 0 {
		fmt.Fprintln(w)
		stepTable(w, steps)
	}
	if c := res.GetCounts(); c.GetTotal() > 0 || c.GetIncomplete() {
		format := ""
		if c.GetFormat() != "" {
			format = " (" + c.GetFormat() + ")"
		}
		fmt.Fprintf(w, "\nTests:    %s of %d%s\n", progress.Counts(c), c.GetTotal(), format)
		if c.GetIncomplete() {
			fmt.Fprintf(w, "          counts incomplete: %s\n", c.GetIncompleteReason())
		}
	}
	failures(w, res.GetFailures(), opts.MaxFailures, moreHint(run.GetId(), opts.Program))
	planText(w, res.GetPlan())
	if s := shownScore(res); s != nil {
		fmt.Fprintf(w, "Score:    %.1f/10 (build %g, tests %g, lint %g, no critical %g), level %s\n",
			s.GetTotal(), s.GetBuild(), s.GetTests(), s.GetLint(), s.GetNoCritical(), progress.Level(res.GetLevel()))
		if s.GetSecurityRan() {
			fmt.Fprintf(w, "Security: %g/1 (%d finding(s)), beside the score, not in it\n", s.GetSecurity(), s.GetSecurityFindings())
		}
	} else if res.GetLevel() != glv1.Level_LEVEL_UNSPECIFIED {
		fmt.Fprintf(w, "Level:    %s\n", progress.Level(res.GetLevel()))
	}
	coverage(w, res.GetCoverage())
	review(w, res.GetReview())
	if m := run.GetMetrics(); run.GetKind() == glv1.RunKind_RUN_KIND_FIX && m != nil {
		fixMetrics(w, m)
	}
	if memo := memoLine(res.GetStopMemo()); memo != "" {
		fmt.Fprintf(w, "Stopped:  %s\n", memo)
	}
	fmt.Fprintf(w, "Run:      %s (%s)\n", run.GetId(), progress.RunStatus(run.GetStatus()))
	switch {
	case opts.ReportURL != "" && opts.ReportNeedsToken:
		fmt.Fprintf(w, "Report:   %s (asks once for the gateway's token, GREENLIGHT_TOKEN; or open it with ?token=TOKEN)\n", opts.ReportURL)
	case opts.ReportURL != "":
		fmt.Fprintf(w, "Report:   %s\n", opts.ReportURL)
	case opts.Hint != "":
		fmt.Fprintf(w, "Report:   %s\n", opts.Hint)
	}
}

// banner writes the status line that says, explicitly, whether execution
// passed.
func banner(w io.Writer, run *glv1.Run, color bool) {
	res := run.GetResult()
	word, why, code := "ERROR", res.GetSummary(), "\x1b[1;37;43m"
	switch res.GetStatus() {
	case glv1.Verdict_VERDICT_PASS:
		word, code = "PASS", "\x1b[1;37;42m"
		why = strings.TrimPrefix(strings.TrimSpace(why), "PASS: ")
		if why == "" {
			why = "execution passed"
		}
		if !strings.Contains(strings.ToLower(why), "execution passed") {
			why = "execution passed: " + why
		}
	case glv1.Verdict_VERDICT_FAIL:
		word, code = "FAIL", "\x1b[1;37;41m"
	default:
		if why == "" {
			why = run.GetError()
		}
		if why == "" {
			why = "the run ended " + progress.RunStatus(run.GetStatus()) + " without a verdict"
		}
	}
	why = strings.TrimPrefix(strings.TrimSpace(why), word+": ")
	label := " " + word + " "
	if res.GetPartial() != nil {
		// A PASS of one test is not a PASS of the project: the label says so
		// before the reason does.
		label = " " + word + " (partial) "
	}
	if color {
		label = code + label + "\x1b[0m"
	}
	fmt.Fprintf(w, "%s %s\n", label, termtext.Line(why, 0))
}

// stepTable writes one row per step.
func stepTable(w io.Writer, steps []*glv1.StepResult) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  #\tSTEP\tPHASE\tSTATUS\tEXIT\tDURATION\tCACHE\tTESTS")
	for i, s := range steps {
		cache := ""
		switch {
		case s.GetCacheHit():
			cache = "hit"
		case strings.HasPrefix(s.GetCacheNote(), "dependency cache not used"):
			cache = "off" // the snapshot ships a cache path; the progress line says which
		case s.GetCacheNote() != "":
			cache = "cold"
		}
		tests := ""
		if c := s.GetCounts(); c.GetTotal() > 0 || c.GetIncomplete() {
			tests = progress.Counts(c)
		}
		exit := fmt.Sprint(s.GetExitCode())
		if s.GetStatus() == glv1.StepStatus_STEP_STATUS_SKIPPED {
			exit = "-"
		}
		st := progress.StepStatus(s.GetStatus())
		if s.GetOptional() {
			st += " (advisory)" // reported and scored, never fails the verdict
		}
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", i+1, s.GetName(), display.Enum(s.GetPhase()),
			st, exit, progress.Duration(s.GetDuration().AsDuration()), cache, tests)
	}
	_ = tw.Flush()
	for _, s := range steps {
		if strings.HasPrefix(s.GetReason(), "tool not available in ") {
			fmt.Fprintf(w, "  %s: %s\n", s.GetName(), termtext.Line(s.GetReason(), 0))
		}
	}
}

// failures lists file:line, kind, test and message of each failure.
func failures(w io.Writer, fs []*glv1.Failure, max int, more string) {
	if len(fs) == 0 {
		return
	}
	if max <= 0 {
		max = 20
	}
	fmt.Fprintf(w, "\nFailures (%d):\n", len(fs))
	for i, f := range fs {
		if i == max {
			fmt.Fprintf(w, "  … %d more (%s)\n", len(fs)-max, more)
			break
		}
		fmt.Fprintf(w, "  %s  %s", Location(f), display.Enum(f.GetKind()))
		if f.GetTest() != "" {
			fmt.Fprintf(w, "  %s", f.GetTest())
		}
		if m := termtext.Line(f.GetMessage(), maxMessageWidth); m != "" {
			fmt.Fprintf(w, ": %s", m)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

// Location renders file:line (file:line:col when known), or the step
// when the failure has no file.
func Location(f *glv1.Failure) string {
	switch {
	case f.GetFile() == "":
		if s := f.GetEvidence().GetStep(); s != "" {
			return "(step " + s + ")"
		}
		return "(no location)"
	case f.GetLine() <= 0:
		return f.GetFile()
	case f.GetColumn() > 0:
		return fmt.Sprintf("%s:%d:%d", f.GetFile(), f.GetLine(), f.GetColumn())
	default:
		return fmt.Sprintf("%s:%d", f.GetFile(), f.GetLine())
	}
}

// fixMetrics writes the repair loop's metrics.
func fixMetrics(w io.Writer, m *glv1.FixMetrics) {
	green := "not green"
	if m.GetGreen() {
		green = fmt.Sprintf("green after %d attempt(s) in %s", m.GetAttemptsToGreen(), progress.Duration(m.GetTimeToGreen().AsDuration()))
	}
	fmt.Fprintf(w, "Repair:   %s; %d round(s), %d rollback(s), %d patch line(s)", green, m.GetRounds(), m.GetRollbacks(), m.GetPatchLines())
	if u := m.GetUsage(); u.GetPromptTokens()+u.GetCompletionTokens() > 0 {
		fmt.Fprintf(w, ", %d+%d tokens", u.GetPromptTokens(), u.GetCompletionTokens())
	}
	if m.GetStopReason() != "" {
		fmt.Fprintf(w, "; stopped: %s", m.GetStopReason())
	}
	fmt.Fprintln(w)
	if t := m.GetTransitions(); t != nil {
		fmt.Fprintf(w, "Tests:    against the baseline, %s\n", display.Transitions(t))
	}
	if h := m.GetHiddenTests(); h != nil {
		fmt.Fprintf(w, "Hidden:   %d hidden test(s) passed, %d failed", h.GetPassed(), h.GetFailed())
		if h.GetMissing() > 0 {
			fmt.Fprintf(w, " (%d not run)", h.GetMissing())
		}
		if len(h.GetFailing()) > 0 {
			fmt.Fprintf(w, ": %s", termtext.Clean(strings.Join(h.GetFailing(), ", ")))
		}
		fmt.Fprintln(w)
	}
}

// memoLine picks the line of a stop memo (Markdown) that says why the run
// stopped: the "Stopped:" line, else the first line that is not a heading.
func memoLine(memo string) string {
	first := ""
	for _, l := range strings.Split(memo, "\n") {
		l = strings.TrimSpace(strings.ReplaceAll(l, "**", ""))
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if strings.HasPrefix(l, "Stopped:") {
			return strings.TrimSpace(strings.TrimPrefix(l, "Stopped:"))
		}
		if first == "" {
			first = l
		}
	}
	return first
}

// shownScore is the score a summary prints: none for an ERROR, where
// nothing (or not enough) was verified and a number would read as a
// judgement of the code (servers before issue 11 still stored one).
func shownScore(res *glv1.Result) *glv1.Score {
	if res.GetStatus() == glv1.Verdict_VERDICT_ERROR {
		return nil
	}
	return res.GetScore()
}

// moreHint is the command that lists every failure of a run.
func moreHint(runID, prog string) string {
	if prog == "" {
		prog = "greenlight"
	}
	if runID == "" {
		return prog + " show --json"
	}
	return prog + " show " + runID + " --json"
}
