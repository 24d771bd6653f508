package progress

import (
	"bytes"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func chunk(index int32, stream glv1.Stream, data string) *glv1.RunEvent {
	return &glv1.RunEvent{Kind: &glv1.RunEvent_LogChunk{LogChunk: &glv1.LogChunk{Index: index, Step: "pytest", Stream: stream, Data: data}}}
}

// --logs prints whole lines, on a terminal as in plain mode: a line split
// across chunks is printed once, when its newline (or its step's end)
// arrives, and the two streams do not mix halves.
func TestLogsPrintWholeLinesOnATerminalToo(t *testing.T) {
	for _, terminal := range []bool{false, true} {
		var out bytes.Buffer
		r := New(&out, Options{Logs: true, Terminal: terminal, Tick: -1})
		for _, ev := range []*glv1.RunEvent{
			chunk(1, glv1.Stream_STREAM_STDOUT, "collected 3 ite"),
			chunk(1, glv1.Stream_STREAM_STDERR, "warn: slo"),
			chunk(1, glv1.Stream_STREAM_STDOUT, "ms\ntest_a.py ..F\nFAILED test_a.py::test_c"),
			chunk(1, glv1.Stream_STREAM_STDERR, "w disk\n"),
			{Kind: &glv1.RunEvent_StepFinished{StepFinished: &glv1.StepFinished{Index: 1, Result: &glv1.StepResult{
				Name: "pytest", Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1}}}},
		} {
			r.Event(ev)
		}
		r.Close()
		got := ownSpinnerCodes.ReplaceAllString(out.String(), "")
		for _, want := range []string{"  | collected 3 items\n", "  | test_a.py ..F\n", "  | warn: slow disk\n", "  | FAILED test_a.py::test_c\n"} {
			if strings.Count(got, want) != 1 {
				t.Errorf("terminal=%v: want %q once in:\n%s", terminal, want, got)
			}
		}
		if strings.Contains(got, "  | ms") || strings.Contains(got, "  | w disk") {
			t.Errorf("terminal=%v: a line was split at a chunk boundary:\n%s", terminal, got)
		}
		if strings.Index(got, "FAILED test_a.py::test_c") > strings.Index(got, "✗ pytest") {
			t.Errorf("terminal=%v: the step's last line must come before its result:\n%s", terminal, got)
		}
	}
}
