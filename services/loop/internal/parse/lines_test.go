package parse

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func TestLineReaderTruncatesLongLines(t *testing.T) {
	long := strings.Repeat("x", 20<<20) // a 20 MB line
	in := "first\n" + long + "\nlast line\r\nno newline"
	lr := newLineReader(strings.NewReader(in), 1<<10)
	var got []line
	for {
		ln, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		ln.text = append([]byte(nil), ln.text...)
		got = append(got, ln)
	}
	if len(got) != 4 {
		t.Fatalf("%d lines, want 4", len(got))
	}
	if len(got[1].text) != 1<<10 || !got[1].cut {
		t.Errorf("long line kept %d bytes, cut=%v", len(got[1].text), got[1].cut)
	}
	if string(got[2].text) != "last line" || got[2].off != int64(6+len(long)+1) {
		t.Errorf("line after the long one = %q at %d", got[2].text, got[2].off)
	}
	if string(got[3].text) != "no newline" {
		t.Errorf("last line = %q", got[3].text)
	}
	if cap(lr.buf) > 2<<10 {
		t.Errorf("buffer grew to %d bytes for a 20 MB line", cap(lr.buf))
	}
}

func TestStripANSI(t *testing.T) {
	in := "\x1b[31m×\x1b[39m adds wrong\x1b[32m 11\x1b[2mms\x1b[22m\x1b[39m\x1b]8;;http://x\x07link\x1b]8;;\x07"
	if got := string(stripANSI(nil, []byte(in))); got != "× adds wrong 11mslink" {
		t.Errorf("stripANSI = %q", got)
	}
}

func TestGarbageIsUnparsedAndExitCodeDecides(t *testing.T) {
	garbage := bytes.Repeat([]byte{0, 0xff, '\n', 0x1b, '[', 'x', ':', '1', ':', '2', ':', ' '}, 1000)
	for _, tc := range []struct {
		status   glv1.StepStatus
		exit     int32
		failures int
	}{
		{glv1.StepStatus_STEP_STATUS_OK, 0, 0},
		{glv1.StepStatus_STEP_STATUS_FAILED, 2, 1},
	} {
		rep, err := Step(context.Background(), Input{
			Step:   &glv1.Step{Name: "t", Phase: glv1.Phase_PHASE_TEST, Command: "./run"},
			Result: &glv1.StepResult{Status: tc.status, ExitCode: tc.exit}, Log: bytes.NewReader(garbage)})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Format != FormatUnparsed || rep.HasTests {
			t.Errorf("format = %s", rep.Format)
		}
		if len(rep.Failures) != tc.failures {
			t.Fatalf("exit %d: %d failures, want %d", tc.exit, len(rep.Failures), tc.failures)
		}
		if tc.failures > 0 && rep.Failures[0].Kind != glv1.FailureKind_FAILURE_KIND_TEST_ERROR {
			t.Errorf("kind = %s", rep.Failures[0].Kind)
		}
		checkProto(t, rep)
	}
}

func TestStatusFailures(t *testing.T) {
	for _, tc := range []struct {
		phase  glv1.Phase
		status glv1.StepStatus
		want   glv1.FailureKind
	}{
		{glv1.Phase_PHASE_TEST, glv1.StepStatus_STEP_STATUS_TIMED_OUT, glv1.FailureKind_FAILURE_KIND_TIMEOUT},
		{glv1.Phase_PHASE_BUILD, glv1.StepStatus_STEP_STATUS_OOM_KILLED, glv1.FailureKind_FAILURE_KIND_OOM},
		{glv1.Phase_PHASE_INSTALL, glv1.StepStatus_STEP_STATUS_FAILED, glv1.FailureKind_FAILURE_KIND_INSTALL},
	} {
		log := "npm error code E404\nnpm error 404 Not Found - GET https://registry/left-pad\n"
		rep, err := Step(context.Background(), Input{Step: &glv1.Step{Name: "s", Phase: tc.phase},
			Result: &glv1.StepResult{Status: tc.status, ExitCode: 1, Reason: "limit"}, Log: strings.NewReader(log)})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Failures) == 0 || rep.Failures[0].Kind != tc.want {
			t.Fatalf("%s: failures %+v, want first %s", tc.status, rep.Failures, tc.want)
		}
		if tc.want == glv1.FailureKind_FAILURE_KIND_INSTALL && !strings.Contains(rep.Failures[0].Message, "404 Not Found") {
			t.Errorf("install message %q lacks the error line", rep.Failures[0].Message)
		}
	}
}

func TestRecordCapsCountTheRest(t *testing.T) {
	var b strings.Builder
	b.WriteString("running 50 tests\n")
	for i := 0; i < 40; i++ {
		b.WriteString("test t" + strings.Repeat("x", i) + " ... ok\n")
	}
	for i := 0; i < 10; i++ {
		b.WriteString("test f" + strings.Repeat("y", i) + " ... FAILED\n")
	}
	rep, err := Step(context.Background(), Input{Step: &glv1.Step{Name: "c", Phase: glv1.Phase_PHASE_TEST},
		Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 101}, Log: strings.NewReader(b.String()),
		Limits: Limits{MaxTests: 5, MaxFailures: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Counts != (Counts{Passed: 40, Failed: 10}) {
		t.Errorf("counts = %+v", rep.Counts)
	}
	if len(rep.Tests) != 8 || rep.TestsOmitted != 42 {
		t.Errorf("kept %d records, omitted %d; want 8 and 42", len(rep.Tests), rep.TestsOmitted)
	}
	if len(rep.Failures) != 3 || rep.FailuresOmitted != 7 {
		t.Errorf("kept %d failures, omitted %d", len(rep.Failures), rep.FailuresOmitted)
	}
}

func TestCanceledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Step(ctx, Input{Log: strings.NewReader(strings.Repeat("line\n", 10000))})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestPathsNormalize(t *testing.T) {
	p := NewPaths("", "web", nil)
	for _, tc := range []struct {
		in      string
		want    string
		project bool
	}{
		{"/workspace/web/src/a.js", "web/src/a.js", true},
		{"src/a.js", "web/src/a.js", true},
		{"./src/a.js", "web/src/a.js", true},
		{"file:///workspace/api/x.py", "api/x.py", true},
		{"/workspace/web/node_modules/jest/x.js", "/workspace/web/node_modules/jest/x.js", false},
		{"/usr/local/go/src/testing/testing.go", "/usr/local/go/src/testing/testing.go", false},
		{"/usr/lib/python3/dist-packages/_pytest/x.py", "/usr/lib/python3/dist-packages/_pytest/x.py", false},
		{"/root/go/pkg/mod/github.com/x/y.go", "/root/go/pkg/mod/github.com/x/y.go", false},
		{"node:internal/timers", "node:internal/timers", false},
		{"../../etc/passwd", "../../etc/passwd", false},
		{"/etc/passwd", "/etc/passwd", false},
	} {
		got, project := p.Normalize(tc.in)
		if got != tc.want || project != tc.project {
			t.Errorf("Normalize(%q) = %q, %v; want %q, %v", tc.in, got, project, tc.want, tc.project)
		}
	}
}
