package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

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

// Watching a finished run replays its events in milliseconds: the time
// shown is the run's own, from the events' server timestamps.
func TestRunTimeIsTheRunsNotTheReplays(t *testing.T) {
	var out bytes.Buffer
	r := New(&out, Options{Tick: -1})
	t0 := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	r.Event(&glv1.RunEvent{Time: timestamppb.New(t0), Kind: &glv1.RunEvent_RunCreated{RunCreated: &glv1.RunCreated{
		Run: &glv1.Run{Id: "r_1", Kind: glv1.RunKind_RUN_KIND_VERIFY}}}})
	r.Event(&glv1.RunEvent{Time: timestamppb.New(t0.Add(83 * time.Second)), Kind: &glv1.RunEvent_RunFinished{
		RunFinished: &glv1.RunFinished{Status: glv1.RunStatus_RUN_STATUS_PASSED}}})
	r.Close()
	if want := "run finished: " + RunStatus(glv1.RunStatus_RUN_STATUS_PASSED) + " in " + Duration(83*time.Second); !strings.Contains(out.String(), want) {
		t.Errorf("want %q in:\n%s", want, out.String())
	}
}
