package report

import (
	"fmt"
	"regexp"
	"strings"
)

// reEvidenceLine matches lines that must survive cutting: errors, failures,
// assertion output, panics, tracebacks and file:line positions.
var reEvidenceLine = regexp.MustCompile(`(?i)error|fail|panic|traceback|exception|assert|fatal|✕|✖|×|●|^E\s|\.\w+:\d+`)

// Cut shortens a log to about maxLines without summarizing it: the first
// quarter and the last half of the budget are kept verbatim, lines in
// between that carry evidence (error lines, positions) are kept verbatim
// too while the budget lasts, and every gap is replaced by one marker line
// `… [N lines cut] …`. Text within the budget is returned unchanged.
func Cut(text string, maxLines int) string {
	lines := strings.Split(text, "\n")
	if maxLines <= 0 || len(lines) <= maxLines {
		return text
	}
	head := maxLines / 4
	tail := maxLines / 2
	budget := maxLines - head - tail
	keep := make([]bool, len(lines))
	for i := 0; i < head; i++ {
		keep[i] = true
	}
	for i := len(lines) - tail; i < len(lines); i++ {
		keep[i] = true
	}
	for i := head; i < len(lines)-tail && budget > 0; i++ {
		if reEvidenceLine.MatchString(lines[i]) {
			keep[i] = true
			budget--
		}
	}
	var b strings.Builder
	gap := 0
	for i, l := range lines {
		if !keep[i] {
			gap++
			continue
		}
		if gap > 0 {
			fmt.Fprintf(&b, "… [%d lines cut] …\n", gap)
			gap = 0
		}
		b.WriteString(l)
		if i < len(lines)-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
