package display

import (
	"encoding/json"
	"strings"
)

// GoTestText renders a log for a person: `go test -json` (test2json)
// events become the text `go test` would have printed — each output
// event's text, other events dropped — and a build event's output
// likewise; lines that are not events are kept as they are. A log with no
// test2json events is returned unchanged.
//
// It is the loop's parse.Readable, moved here so the gateway's log page
// and the loop (stop memos, patch requests) render the same text.
func GoTestText(log string) string {
	if !MayHoldGoTestJSON(log) {
		return log
	}
	var b strings.Builder
	for _, l := range strings.SplitAfter(log, "\n") {
		b.WriteString(GoTestLine(l))
	}
	return b.String()
}

// MayHoldGoTestJSON is a cheap test for test2json events in text: false
// means GoTestText would return it unchanged.
func MayHoldGoTestJSON(text string) bool {
	return strings.Contains(text, `"Action"`) || strings.Contains(text, `"ImportPath"`)
}

// GoTestLine renders one line of a log (with or without its newline): the
// output text of an output or build-output event, "" for any other
// test2json event, and the line itself when it is not an event.
func GoTestLine(line string) string {
	trimmed := strings.TrimSpace(line)
	if !strings.HasPrefix(trimmed, "{") {
		return line
	}
	var ev struct {
		Action string
		Output *string
	}
	if err := json.Unmarshal([]byte(trimmed), &ev); err != nil || (ev.Action == "" && ev.Output == nil) {
		return line
	}
	if ev.Output != nil && (ev.Action == "output" || ev.Action == "build-output") {
		return *ev.Output
	}
	return ""
}
