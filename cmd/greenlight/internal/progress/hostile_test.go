package progress

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/termtext"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// hostileLog is what code under test may print: a window title, clear
// screen, a color, a carriage return over the verdict, a bidi override
// and a line of wide characters far wider than any terminal.
var hostileLog = "\x1b]0;title\x07\x1b[2J\x1b[31mred\x1b[0m\rPASS \u202eevil\n" + strings.Repeat("测试", 100) + "\n"

// hostileEvents is a run whose step name, log and reason carry control
// sequences.
func hostileEvents() []*glv1.RunEvent {
	step := &glv1.Step{Name: "test\x1b[2J", Command: "pytest\x1b]0;x\x07"}
	return []*glv1.RunEvent{
		{Kind: &glv1.RunEvent_StepStarted{StepStarted: &glv1.StepStarted{Index: 0, Step: step}}},
		{Kind: &glv1.RunEvent_LogChunk{LogChunk: &glv1.LogChunk{Step: "test", Data: hostileLog}}},
		{Kind: &glv1.RunEvent_StepFinished{StepFinished: &glv1.StepFinished{Index: 0, Result: &glv1.StepResult{
			Name: step.Name, Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1, Reason: "boom\x1b[1A\u202e",
		}}}},
	}
}

// ownSpinnerCodes are the only sequences the renderer itself writes.
var ownSpinnerCodes = regexp.MustCompile(`\r\x1b\[2K`)

// TestRendererCleansSandboxText: plain output (a pipe, with --logs) has no
// escape sequence, carriage return, bell or bidi override; on a terminal
// the only sequences are the renderer's own spinner codes and the spinner
// line fits the width, wide characters counted as two cells.
func TestRendererCleansSandboxText(t *testing.T) {
	var plain bytes.Buffer
	r := New(&plain, Options{Logs: true, Tick: -1})
	for _, ev := range hostileEvents() {
		r.Event(ev)
	}
	r.Close()
	assertClean(t, "plain", plain.String())
	if !strings.Contains(plain.String(), "<U+202E>evil") {
		t.Errorf("the bidi override should be shown, not applied:\n%s", plain.String())
	}

	var tty bytes.Buffer
	clock := &fakeClock{t: time.Unix(0, 0), step: time.Millisecond}
	r = New(&tty, Options{Terminal: true, Width: 40, Tick: -1, Now: clock.now})
	evs := hostileEvents()
	r.Event(evs[0])
	r.Event(evs[1])
	r.Redraw()
	spin := tty.String()[strings.LastIndex(tty.String(), "\r\x1b[2K")+len("\r\x1b[2K"):]
	if w := termtext.Width(spin); w > 39 || !strings.Contains(spin, "测") {
		t.Errorf("spinner line %q is %d cells wide, want the log line clipped to 39", spin, w)
	}
	r.Event(evs[2])
	r.Close()
	assertClean(t, "terminal", ownSpinnerCodes.ReplaceAllString(tty.String(), ""))
}

func assertClean(t *testing.T, what, out string) {
	t.Helper()
	for _, bad := range []string{"\x1b", "\x07", "\r", "\u202e", "title"} {
		if strings.Contains(out, bad) {
			t.Errorf("%s output contains %q:\n%q", what, bad, out)
		}
	}
}
