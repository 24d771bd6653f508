package parse

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// goStream is a `go test -json` event stream of one package with pass
// passing tests, then fail failing ones, each printing a few lines.
func goStream(pkg string, pass, fail int) string {
	var b strings.Builder
	ev := func(action, test, output string) {
		fmt.Fprintf(&b, `{"Time":"2026-01-01T00:00:00Z","Action":%q,"Package":%q`, action, pkg)
		if test != "" {
			fmt.Fprintf(&b, `,"Test":%q`, test)
		}
		if output != "" {
			fmt.Fprintf(&b, `,"Output":%q`, output)
		}
		if action == "pass" || action == "fail" {
			b.WriteString(`,"Elapsed":0`)
		}
		b.WriteString("}\n")
	}
	for i := 0; i < pass+fail; i++ {
		name := fmt.Sprintf("TestN%03d", i)
		ev("run", name, "")
		ev("output", name, "=== RUN   "+name+"\n")
		ev("output", name, "    some chatter from the test\n")
		if i < pass {
			ev("output", name, "--- PASS: "+name+" (0.00s)\n")
			ev("pass", name, "")
			continue
		}
		ev("output", name, "    x_test.go:12: boom\n")
		ev("output", name, "--- FAIL: "+name+" (0.00s)\n")
		ev("fail", name, "")
	}
	if fail > 0 {
		ev("output", "", "FAIL\n")
		ev("fail", "", "")
	} else {
		ev("output", "", "PASS\n")
		ev("pass", "", "")
	}
	return b.String()
}

// parseStepLog parses a test step's log (cut to logCap bytes, marked
// truncated, when logCap > 0) with the given report artifacts.
func parseStepLog(t *testing.T, status glv1.StepStatus, exit int32, log string, logCap int, arts map[string]io.Reader) *StepReport {
	t.Helper()
	res := &glv1.StepResult{Status: status, ExitCode: exit, OutputBytes: int64(len(log))}
	if logCap > 0 && len(log) > logCap {
		log, res.Truncated = log[:logCap], true
	}
	rep, err := Step(context.Background(), Input{
		Step:   &glv1.Step{Name: "go-test", Phase: glv1.Phase_PHASE_TEST, ReportFiles: []string{"/tmp/greenlight/reports/go-test.jsonl"}},
		Result: res, Log: strings.NewReader(log), Artifacts: arts,
	})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestTruncatedLogCountsFromTheReport(t *testing.T) {
	stream := goStream("example.com/m", 189, 16)
	for _, tc := range []struct {
		name   string
		status glv1.StepStatus
		exit   int32
		want   Counts
	}{
		{"failing", glv1.StepStatus_STEP_STATUS_FAILED, 1, Counts{Passed: 189, Failed: 16}},
		{"passing", glv1.StepStatus_STEP_STATUS_OK, 0, Counts{Passed: 205}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := stream
			if tc.exit == 0 {
				s = goStream("example.com/m", 205, 0)
			}
			arts := map[string]io.Reader{"/tmp/greenlight/reports/go-test.jsonl": strings.NewReader(s)}
			rep := parseStepLog(t, tc.status, tc.exit, s, len(s)/4, arts)
			if rep.Format != FormatGoJSON || rep.Counts != tc.want {
				t.Fatalf("format %s counts %+v, want go-json %+v", rep.Format, rep.Counts, tc.want)
			}
			if rep.Incomplete || rep.IncompleteReason != "" {
				t.Errorf("counts from a whole report marked incomplete: %q", rep.IncompleteReason)
			}
			if c := rep.CountsProto(); c.GetTotal() != int32(tc.want.Total()) || c.GetIncomplete() {
				t.Errorf("proto counts %v", c)
			}
			failing := 0
			for _, f := range rep.Failures {
				if f.Test != "" {
					failing++
					if f.Offset != -1 || f.File != "x_test.go" || f.Line != 12 {
						t.Errorf("failure from the report: %+v", f)
					}
				}
			}
			if failing != tc.want.Failed {
				t.Errorf("%d failing tests in failures, want %d", failing, tc.want.Failed)
			}
		})
	}
}

func TestTruncatedLogWithoutReportIsIncomplete(t *testing.T) {
	stream := goStream("example.com/m", 205, 0)
	rep := parseStepLog(t, glv1.StepStatus_STEP_STATUS_OK, 0, stream, len(stream)/4, nil)
	if !rep.Incomplete || !strings.Contains(rep.IncompleteReason, "cut at the per-step cap") ||
		!strings.Contains(rep.IncompleteReason, fmt.Sprintf("of %d bytes", len(stream))) {
		t.Fatalf("incomplete %v %q", rep.Incomplete, rep.IncompleteReason)
	}
	if rep.Counts.Total() == 0 || rep.Counts.Total() >= 205 {
		t.Errorf("counts %+v: want the part printed before the cut", rep.Counts)
	}
	c := rep.CountsProto()
	if !c.GetIncomplete() || c.GetIncompleteReason() != rep.IncompleteReason {
		t.Errorf("proto %v", c)
	}

	// A failing step's cut log gains no failure for the test running at
	// the cut: it was cut, not killed.
	failing := goStream("example.com/m", 150, 16)
	rep = parseStepLog(t, glv1.StepStatus_STEP_STATUS_FAILED, 1, failing, len(failing)/2, nil)
	if !rep.Incomplete || rep.Counts.Failed != 0 || rep.Counts.Unfinished != 0 {
		t.Errorf("cut failing log: incomplete %v counts %+v", rep.Incomplete, rep.Counts)
	}

	// The whole log, or a cut log with a report, is complete.
	for name, rep := range map[string]*StepReport{
		"whole log":      parseStepLog(t, glv1.StepStatus_STEP_STATUS_OK, 0, stream, 0, nil),
		"report and cut": parseStepLog(t, glv1.StepStatus_STEP_STATUS_OK, 0, stream, 100, map[string]io.Reader{"r.jsonl": strings.NewReader(stream)}),
	} {
		if rep.Incomplete || rep.Counts != (Counts{Passed: 205}) {
			t.Errorf("%s: incomplete %v (%q), counts %+v", name, rep.Incomplete, rep.IncompleteReason, rep.Counts)
		}
	}
}

func TestDeadRunnersLeaveIncompleteCounts(t *testing.T) {
	for _, tc := range []struct {
		name, log string
		exit      int32
		status    glv1.StepStatus
		want      string
	}{
		{"go binary died mid-test", goStream("example.com/m", 3, 0) + `{"Action":"run","Package":"example.com/m","Test":"TestDies"}` + "\n" +
			`{"Action":"output","Package":"example.com/m","Test":"TestDies","Output":"=== RUN   TestDies\n"}` + "\n" +
			`{"Action":"output","Package":"example.com/m","Output":"FAIL\texample.com/m\t0.01s\n"}` + "\n" +
			`{"Action":"fail","Package":"example.com/m","Elapsed":0.01}` + "\n",
			1, glv1.StepStatus_STEP_STATUS_FAILED, "1 test(s) did not finish"},
		{"pytest collection interrupted", "============================= test session starts ==============================\n" +
			"collected 3 items / 1 error\n\n" +
			"==================================== ERRORS ====================================\n" +
			"_______________________ ERROR collecting tests/test_b.py ________________________\n" +
			"ImportError while importing test module '/workspace/tests/test_b.py'.\n" +
			"E   ModuleNotFoundError: No module named 'yaml'\n" +
			"=========================== short test summary info ============================\n" +
			"ERROR tests/test_b.py\n" +
			"!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!!\n" +
			"=============================== 1 error in 0.12s ===============================\n",
			2, glv1.StepStatus_STEP_STATUS_FAILED, "pytest was interrupted (1 error during collection)"},
		{"pytest segfault", "============================= test session starts ==============================\n" +
			"collected 4 items\n\n" +
			"tests/test_a.py ..Fatal Python error: Segmentation fault\n\n" +
			"Current thread 0x00007f (most recent call first):\n" +
			"  File \"/workspace/tests/test_a.py\", line 9 in test_crash\n",
			139, glv1.StepStatus_STEP_STATUS_FAILED, "pytest died in tests/test_a.py"},
		{"runner killed before its summary", "ok 1 - adds\nok 2 - subtracts\n", 137, glv1.StepStatus_STEP_STATUS_FAILED,
			"killed (failed, exit 137) before the runner printed its summary"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := parseStepLog(t, tc.status, tc.exit, tc.log, 0, nil)
			if !rep.Incomplete || !strings.Contains(rep.IncompleteReason, tc.want) {
				t.Fatalf("incomplete %v %q, want %q (format %s counts %+v)", rep.Incomplete, rep.IncompleteReason, tc.want, rep.Format, rep.Counts)
			}
		})
	}
	// A finished run of the same runners is complete.
	rep := parseStepLog(t, glv1.StepStatus_STEP_STATUS_FAILED, 1, goStream("example.com/m", 3, 1), 0, nil)
	if rep.Incomplete {
		t.Errorf("finished go run: %q", rep.IncompleteReason)
	}
}

// A real captured go test -json run whose TestMode panics (its package's
// later tests never ran): the panicking test is a failure, and the counts
// say they are incomplete.
func TestGoPanicLeavesIncompleteCounts(t *testing.T) {
	b, err := os.ReadFile("testdata/golden/go-json/panic.log")
	if err != nil {
		t.Fatal(err)
	}
	rep := parseStepLog(t, glv1.StepStatus_STEP_STATUS_FAILED, 1, string(b), 0, nil)
	if !rep.Incomplete || !strings.Contains(rep.IncompleteReason, "the test binary of example.com/svc/calc panicked in TestMode") {
		t.Fatalf("incomplete %v %q (counts %+v)", rep.Incomplete, rep.IncompleteReason, rep.Counts)
	}
	if rep.Counts.Failed != 1 {
		t.Errorf("counts %+v", rep.Counts)
	}
}

// With the whole log stored, failures keep their log offsets (evidence);
// the report decides only when the log was cut.
func TestWholeLogKeepsOffsetsBesideTheReport(t *testing.T) {
	stream := goStream("example.com/m", 5, 2)
	rep := parseStepLog(t, glv1.StepStatus_STEP_STATUS_FAILED, 1, stream, 0, map[string]io.Reader{"r.jsonl": strings.NewReader(stream)})
	if rep.Counts != (Counts{Passed: 5, Failed: 2}) || rep.Incomplete {
		t.Fatalf("counts %+v incomplete %v", rep.Counts, rep.Incomplete)
	}
	for _, f := range rep.Failures {
		if f.Offset < 0 {
			t.Errorf("failure %s has no log offset", f.Test)
		}
	}
}
