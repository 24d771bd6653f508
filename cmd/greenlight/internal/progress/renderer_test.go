package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// fakeClock advances by step on every call.
type fakeClock struct {
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time {
	c.t = c.t.Add(c.step)
	return c.t
}

// failingRun is the event stream of a verify run whose test step fails.
func failingRun() []*glv1.RunEvent {
	step := func(name, cmd string) *glv1.Step { return &glv1.Step{Name: name, Command: cmd} }
	ev := func(seq uint64, e *glv1.RunEvent) *glv1.RunEvent { e.RunId, e.Seq = "r_1", seq; return e }
	return []*glv1.RunEvent{
		ev(1, &glv1.RunEvent{Kind: &glv1.RunEvent_RunCreated{RunCreated: &glv1.RunCreated{Run: &glv1.Run{Id: "r_1", Kind: glv1.RunKind_RUN_KIND_VERIFY}}}}),
		ev(2, &glv1.RunEvent{Kind: &glv1.RunEvent_DiscoveryDone{DiscoveryDone: &glv1.DiscoveryDone{Pipeline: &glv1.Pipeline{
			Runtime: "python", MaxLevel: glv1.Level_LEVEL_L4,
			Steps: []*glv1.Step{step("compileall", "python3 -m compileall ."), step("pytest", "python3 -m pytest")},
		}}}}),
		ev(3, &glv1.RunEvent{Kind: &glv1.RunEvent_StepStarted{StepStarted: &glv1.StepStarted{Index: 0, Step: step("compileall", "python3 -m compileall .")}}}),
		ev(4, &glv1.RunEvent{Kind: &glv1.RunEvent_StepFinished{StepFinished: &glv1.StepFinished{Index: 0, Result: &glv1.StepResult{
			Name: "compileall", Status: glv1.StepStatus_STEP_STATUS_OK, Duration: durationpb.New(300 * time.Millisecond), CacheHit: true,
		}}}}),
		ev(5, &glv1.RunEvent{Kind: &glv1.RunEvent_StepStarted{StepStarted: &glv1.StepStarted{Index: 1, Step: step("pytest", "python3 -m pytest")}}}),
		ev(6, &glv1.RunEvent{Kind: &glv1.RunEvent_LogChunk{LogChunk: &glv1.LogChunk{Index: 1, Step: "pytest", Data: "collected 3 items\nFAILED tests/test_x.py::test_feels\n"}}}),
		ev(7, &glv1.RunEvent{Kind: &glv1.RunEvent_StepFinished{StepFinished: &glv1.StepFinished{Index: 1, Result: &glv1.StepResult{
			Name: "pytest", Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1, Duration: durationpb.New(2500 * time.Millisecond),
		}}}}),
		ev(8, &glv1.RunEvent{Kind: &glv1.RunEvent_TestsParsed{TestsParsed: &glv1.TestsParsed{Step: "pytest", Counts: &glv1.TestCounts{Passed: 2, Failed: 1, Total: 3}}}}),
		ev(9, &glv1.RunEvent{Kind: &glv1.RunEvent_VerificationDone{VerificationDone: &glv1.VerificationDone{
			Ok: false, Attempt: 1, FailedCommand: "python3 -m pytest", Score: &glv1.Score{Total: 6.7, Level: glv1.Level_LEVEL_L3},
		}}}),
		ev(10, &glv1.RunEvent{Kind: &glv1.RunEvent_RunFinished{RunFinished: &glv1.RunFinished{Status: glv1.RunStatus_RUN_STATUS_FAILED}}}),
	}
}

func TestPlainRendering(t *testing.T) {
	tests := []struct {
		name string
		logs bool
		want string
	}{
		{name: "default", want: `run r_1 created (verify)
discovered python: 2 steps (compileall, pytest), up to L4
[1/2] compileall: python3 -m compileall .
[1/2] ✓ compileall OK, cache hit in 300ms
[2/2] pytest: python3 -m pytest
[2/2] ✗ pytest FAILED (exit 1) in 2.5s
      tests: 2 passed, 1 failed
verification 1 failed at "python3 -m pytest": score 6.7/10, level L3
run finished: FAILED in 3.0s
`},
		{name: "with logs", logs: true, want: `run r_1 created (verify)
discovered python: 2 steps (compileall, pytest), up to L4
[1/2] compileall: python3 -m compileall .
[1/2] ✓ compileall OK, cache hit in 300ms
[2/2] pytest: python3 -m pytest
  | collected 3 items
  | FAILED tests/test_x.py::test_feels
[2/2] ✗ pytest FAILED (exit 1) in 2.5s
      tests: 2 passed, 1 failed
verification 1 failed at "python3 -m pytest": score 6.7/10, level L3
run finished: FAILED in 3.0s
`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			clock := &fakeClock{t: time.Unix(0, 0), step: 0}
			r := New(&out, Options{Logs: tc.logs, Now: clock.now})
			clock.step = time.Second // each clock reading (step starts, the end) is a second later
			for _, ev := range failingRun() {
				r.Event(ev)
			}
			r.Close()
			if out.String() != tc.want {
				t.Errorf("plain output:\n%s\nwant:\n%s", out.String(), tc.want)
			}
			if strings.Contains(out.String(), "\x1b") || strings.Contains(out.String(), "\r") {
				t.Error("plain output contains terminal control sequences")
			}
			if f := r.Finished(); f.GetStatus() != glv1.RunStatus_RUN_STATUS_FAILED {
				t.Errorf("Finished() = %v, want the FAILED RunFinished", f)
			}
		})
	}
}

func TestTerminalSpinner(t *testing.T) {
	var out bytes.Buffer
	clock := &fakeClock{t: time.Unix(0, 0), step: 500 * time.Millisecond}
	r := New(&out, Options{Terminal: true, Width: 60, Tick: -1, Now: clock.now})
	evs := failingRun()
	for _, ev := range evs[:6] { // up to pytest's log chunk: pytest is running
		r.Event(ev)
	}
	out.Reset()
	r.Redraw()
	line := out.String()
	for _, want := range []string{"\r\x1b[2K", "[2/2] pytest", "│ FAILED tests/test_x.py::test_feels"} {
		if !strings.Contains(line, want) {
			t.Errorf("spinner line %q does not contain %q", line, want)
		}
	}
	if n := len([]rune(strings.TrimPrefix(line, "\r\x1b[2K"))); n > 59 {
		t.Errorf("spinner line is %d runes, wider than the terminal", n)
	}
	out.Reset()
	r.Event(evs[6]) // pytest finished: a permanent line replaces the spinner
	got := out.String()
	if !strings.HasPrefix(got, "\r\x1b[2K[2/2] ✗ pytest FAILED (exit 1) in 2.5s\n") {
		t.Errorf("a permanent line must erase the spinner first, got %q", got)
	}
	for _, ev := range evs[7:] {
		r.Event(ev)
	}
	out.Reset()
	r.Close()
	r.Redraw() // after Close nothing is drawn any more
	if strings.Contains(out.String(), "⠋") || strings.Contains(out.String(), "⠙") {
		t.Errorf("spinner drawn after Close: %q", out.String())
	}
}

func TestVerificationLines(t *testing.T) {
	tests := []struct {
		name string
		done *glv1.VerificationDone
		want string
	}{
		{name: "a repair run's unpatched attempt 0 is the baseline",
			done: &glv1.VerificationDone{Attempt: 0, FailedCommand: "python3 -m pytest", Score: &glv1.Score{Total: 6.7, Level: glv1.Level_LEVEL_L3}},
			want: `baseline verification failed at "python3 -m pytest": score 6.7/10, level L3`},
		{name: "after patch 1", done: &glv1.VerificationDone{Attempt: 1, Ok: true, Score: &glv1.Score{Total: 9, Level: glv1.Level_LEVEL_L4}},
			want: "verification 1 passed: score 9.0/10, level L4"},
		{name: "a verify retry", done: &glv1.VerificationDone{Attempt: 2, FailedCommand: "npm test"},
			want: `verification 2 failed at "npm test"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			r := New(&out, Options{})
			r.Event(&glv1.RunEvent{Kind: &glv1.RunEvent_VerificationDone{VerificationDone: tc.done}})
			r.Close()
			if got := strings.TrimSuffix(out.String(), "\n"); got != tc.want {
				t.Errorf("line %q, want %q", got, tc.want)
			}
		})
	}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{850 * time.Millisecond, "850ms"},
		{4200 * time.Millisecond, "4.2s"},
		{65 * time.Second, "1m05s"},
	}
	for _, tc := range tests {
		if got := Duration(tc.d); got != tc.want {
			t.Errorf("Duration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestCIStepShowsItsSource(t *testing.T) {
	var b bytes.Buffer
	r := New(&b, Options{Now: (&fakeClock{t: time.Unix(0, 0), step: time.Millisecond}).now})
	defer r.Close()
	r.Event(&glv1.RunEvent{Kind: &glv1.RunEvent_StepStarted{StepStarted: &glv1.StepStarted{Index: 0, Step: &glv1.Step{
		Name: "ci:build-steps-1", Command: "make -C tests",
		Source: &glv1.CommandSource{File: ".github/workflows/build.yml", Line: 16, Origin: "ci"}}}}})
	r.Event(&glv1.RunEvent{Kind: &glv1.RunEvent_StepStarted{StepStarted: &glv1.StepStarted{Index: 1, Step: &glv1.Step{
		Name: "go-test", Command: "go test ./...", Source: &glv1.CommandSource{File: "go.mod", Origin: "default"}}}}})
	out := b.String()
	if !strings.Contains(out, "ci:build-steps-1: make -C tests  (from the maintainers' CI: .github/workflows/build.yml:16)") {
		t.Errorf("a CI step names its source:\n%s", out)
	}
	if strings.Contains(out, "go.mod") {
		t.Errorf("a discovered step's line is unchanged:\n%s", out)
	}
}

// A generated script (pip-install and its fallback run 1-2 KB) is shown in
// its brief form when its step starts, on one line.
func TestGeneratedScriptIsShownBrief(t *testing.T) {
	script := "python3 -P -m venv --system-site-packages .venv && " + strings.Repeat("{ .venv/bin/python -P -m pip install -r requirements.txt; } && ", 20) + "touch .venv/greenlight-installed"
	var b bytes.Buffer
	r := New(&b, Options{Now: (&fakeClock{t: time.Unix(0, 0), step: time.Millisecond}).now})
	defer r.Close()
	r.Event(&glv1.RunEvent{Kind: &glv1.RunEvent_StepStarted{StepStarted: &glv1.StepStarted{Index: 0, Step: &glv1.Step{Name: "pip-install", Command: script}}}})
	out := b.String()
	line := strings.SplitN(out, "\n", 2)[0]
	if !strings.Contains(line, "pip-install: python3 -P -m venv --system-site-packages .venv && ") || !strings.Contains(line, " bytes)") || len(line) > 200 {
		t.Errorf("the step's line is not the brief command:\n%s", out)
	}
}
