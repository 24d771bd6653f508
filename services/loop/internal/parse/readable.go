package parse

import (
	"encoding/json"
	"strings"
)

// Readable renders a log tail for a person or a model: `go test -json`
// (test2json) events become the text `go test` would have printed — each
// output event's text, other events dropped — and a build event's output
// likewise; lines that are not events are kept as they are. A tail with
// no test2json events is returned unchanged.
func Readable(tail string) string {
	if !strings.Contains(tail, `"Action"`) && !strings.Contains(tail, `"ImportPath"`) {
		return tail
	}
	var b strings.Builder
	for _, l := range strings.SplitAfter(tail, "\n") {
		trimmed := strings.TrimSpace(l)
		if !strings.HasPrefix(trimmed, "{") {
			b.WriteString(l)
			continue
		}
		var ev struct {
			Action string
			Output *string
		}
		if err := json.Unmarshal([]byte(trimmed), &ev); err != nil || (ev.Action == "" && ev.Output == nil) {
			b.WriteString(l)
			continue
		}
		if ev.Output != nil && (ev.Action == "output" || ev.Action == "build-output") {
			b.WriteString(*ev.Output)
		}
	}
	return b.String()
}
