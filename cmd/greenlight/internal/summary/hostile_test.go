package summary

import (
	"bytes"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/termtext"
)

// TestSummariesCleanSandboxText: failure messages, test and step names,
// the summary line and the log tail carry control sequences; the text
// summary (colors on: only the banner's own codes remain) carries none,
// and a failure message of wide characters is clipped by display width.
// (The Markdown is cireport's: TestMarkdownKeepsSandboxTextInert.)
func TestSummariesCleanSandboxText(t *testing.T) {
	run := failedRun()
	res := run.GetResult()
	res.Summary = "FAIL: \x1b]0;title\x07tests\x1b[2J"
	res.Steps[1].Name = "pytest\x1b[31m"
	res.Failures[0].Test = "test_\u202eevil"
	res.Failures[0].Message = "\x1b[1A\r" + strings.Repeat("测试", 200)
	res.TailLog = "\x1b]0;title\x07tail\r"

	var text bytes.Buffer
	Text(&text, run, Options{Color: true})
	out := text.String()
	banner, rest, _ := strings.Cut(out, "\n")
	if strings.Count(banner, "\x1b") != 2 { // the colored label's start and reset
		t.Errorf("banner %q has foreign escape sequences", banner)
	}
	for _, bad := range []string{"\x1b", "\x07", "\r", "\u202e", "title"} {
		if strings.Contains(rest, bad) {
			t.Errorf("text contains %q:\n%q", bad, rest)
		}
	}
	for _, l := range strings.Split(rest, "\n") {
		if strings.Contains(l, "测试") && termtext.Width(l) > maxMessageWidth+80 {
			t.Errorf("failure line is %d cells wide, want the message clipped to %d", termtext.Width(l), maxMessageWidth)
		}
	}
}
