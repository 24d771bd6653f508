package progress

import (
	"fmt"
	"strings"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// Duration renders a duration for people: 850ms, 4.2s, 1m05s.
func Duration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	default:
		d = d.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
}

// StepStatus is a step status without its prefix.
func StepStatus(s glv1.StepStatus) string { return display.Enum(s) }

// RunStatus is a run status without its prefix.
func RunStatus(s glv1.RunStatus) string { return display.Enum(s) }

// Level renders L1..L4 ("-" when unset).
func Level(l glv1.Level) string {
	if l == glv1.Level_LEVEL_UNSPECIFIED {
		return "-"
	}
	return display.Enum(l)
}

// Counts renders test counts: "3 passed, 1 failed, 2 skipped", with
// ", INCOMPLETE" when the counts may miss tests.
func Counts(c *glv1.TestCounts) string {
	if c == nil {
		return ""
	}
	parts := []string{fmt.Sprintf("%d passed", c.GetPassed()), fmt.Sprintf("%d failed", c.GetFailed())}
	if c.GetSkipped() > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped", c.GetSkipped()))
	}
	if c.GetErrors() > 0 {
		parts = append(parts, fmt.Sprintf("%d errors", c.GetErrors()))
	}
	if c.GetFlaky() > 0 {
		parts = append(parts, fmt.Sprintf("%d flaky", c.GetFlaky()))
	}
	if c.GetIncomplete() {
		parts = append(parts, "INCOMPLETE") // some tests may be missing: IncompleteReason says why
	}
	return strings.Join(parts, ", ")
}

// lastLine returns the last non-empty line of s, trimmed.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\r\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(strings.TrimRight(lines[i], "\r")); l != "" {
			return l
		}
	}
	return ""
}
