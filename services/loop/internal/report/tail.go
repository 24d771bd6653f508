package report

import (
	"fmt"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/display"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
)

// TailLog combines the steps' tails, each under a header line naming the
// step and its exit code, and keeps the last MaxTailLines lines.
func TailLog(steps []score.StepOutcome) string {
	var lines []string
	for _, o := range steps {
		if !o.Ran() && o.Result.GetTail() == "" {
			continue
		}
		lines = append(lines, fmt.Sprintf("==> %s (%s, exit %d) <==", o.Name(), strings.ToLower(display.Enum(o.Status())), o.Result.GetExitCode()))
		if t := strings.TrimRight(o.Result.GetTail(), "\n"); t != "" {
			lines = append(lines, strings.Split(t, "\n")...)
		}
	}
	if len(lines) > MaxTailLines {
		lines = lines[len(lines)-MaxTailLines:]
	}
	return strings.Join(lines, "\n")
}
