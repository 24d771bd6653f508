package parse

import (
	"context"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestTAPLibuvDiagnostics: libuv's own runner (uv_run_tests and
// uv_run_tests_a under CTest) prints TAP without YAML: a failed point's
// explanation is the `#` lines after it (`# exit code 6`, `# Output from
// process `timer`:`, `# Assertion failed in /workspace/test/test-timer.c
// on line 100: …`). Captured with the injected bug of
// docs/realworld-bugs-corpus2.txt (see testdata/realworld/README.md); each
// of the two runs has 13 failed points, 4 of them timeouts without a location.
func TestTAPLibuvDiagnostics(t *testing.T) {
	rep := parseRealworld(t, "ctest-libuv-tap.log", "", "test/test-timer.c", "test/test-timer-again.c", "test/test-signal.c", "src/timer.c")
	if rep.Format != FormatTAP || rep.Counts != (Counts{Passed: 966, Failed: 26, Skipped: 22}) {
		t.Fatalf("format %q counts %+v, want tap 966 passed, 26 failed, 22 skipped", rep.Format, rep.Counts)
	}
	want := []string{
		"TEST_ERROR :0 fs_event_watch_file",
		"TEST_ERROR :0 fs_event_watch_file_exact_path",
		"TEST_ERROR :0 loop_stop",
		"TEST_ERROR :0 tcp_reuseport",
		"TEST_ERROR test/test-timer.c:100 timer",
		"TEST_ERROR test/test-timer-again.c:127 timer_again",
		"TEST_ERROR test/test-timer.c:436 timer_no_double_call_nowait",
	}
	if got := failureLines(rep.Failures, len(want)); !slices.Equal(got, want) {
		t.Errorf("failures\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	if m := rep.Failures[4].Message; !strings.Contains(m, "exit code 6") || !strings.Contains(m, "`1 == uv_is_active((uv_handle_t*) handle)` (1 == 0)") {
		t.Errorf("timer's message %q, want its exit code and failed assertion", m)
	}
	if m := rep.Failures[0].Message; !strings.HasPrefix(m, "timeout") {
		t.Errorf("fs_event_watch_file's message %q, want the runner's timeout", m)
	}
}

// TestTAPDiagnosticsShapes: `#` lines after a point explain it only when
// it failed; a location they name must be a file of the project, and
// Test::More's run trailer is no test's explanation.
func TestTAPDiagnosticsShapes(t *testing.T) {
	snap := fstest.MapFS{"test/calc.c": {}, "t/calc.t": {}}
	for _, c := range []struct {
		name, log string
		want      []string
		msg       string
	}{
		{"a location with a colon", "1..2\nok 1 - a\n# note test/calc.c:3\nnot ok 2 - b\n# boom at test/calc.c:12\n",
			[]string{"TEST_ERROR test/calc.c:12 b"}, "boom at test/calc.c:12"},
		{"a file the snapshot lacks is no place", "1..1\nnot ok 1 - b\n# from /usr/include/stdio.h:12 and gen/x.c:4\n",
			[]string{"TEST_ERROR :0 b"}, "from /usr/include/stdio.h:12"},
		{"Test::More's trailer", "1..1\nnot ok 1 - adds\n#   Failed test 'adds'\n#   at t/calc.t line 6.\n# Looks like you failed 1 test of 1.\n",
			[]string{"TEST_ASSERTION t/calc.t:6 adds"}, "Failed test 'adds'"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, err := Step(context.Background(), Input{
				Step:   &glv1.Step{Name: "test", Phase: glv1.Phase_PHASE_TEST, Command: "x"},
				Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1},
				Log:    strings.NewReader(c.log), Files: snap,
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := failureLines(rep.Failures, 10); !slices.Equal(got, c.want) {
				t.Errorf("failures\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
			if len(rep.Failures) > 0 && !strings.Contains(rep.Failures[0].Message, c.msg) {
				t.Errorf("message %q, want it to hold %q", rep.Failures[0].Message, c.msg)
			}
		})
	}
}
