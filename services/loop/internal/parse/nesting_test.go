package parse

import (
	"context"
	"os"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// parseText parses a log of a failed test step.
func parseText(t *testing.T, log string) *StepReport {
	t.Helper()
	rep, err := Step(context.Background(), Input{
		Step:   &glv1.Step{Name: "test", Phase: glv1.Phase_PHASE_TEST, Command: "x"},
		Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1}, Log: strings.NewReader(log),
	})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// Shapes the goldens do not show: each nested test is counted once, a
// parent only when it failed on its own.
func TestNestedCountedOnce(t *testing.T) {
	for _, c := range []struct {
		name, log, format string
		counts            Counts
		failing           []string
	}{
		{"tap parent fails on its own", `TAP version 14
# Subtest: outer
    # Subtest: a
    ok 1 - a
    1..1
not ok 1 - outer
  ---
  error: 'after hook failed'
  ...
1..1
# tests 2
# pass 1
# fail 1
`, FormatNodeTAP, Counts{Passed: 1, Failed: 1}, []string{"outer"}},
		{"tap 14 subtests without comments", `TAP version 14
    ok 1 - a
    not ok 2 - b
    1..2
not ok 1 - parent
1..1
`, FormatNodeTAP, Counts{Passed: 1, Failed: 1}, []string{"b"}},
		{"unittest subtests failing twice", `test_signs (m.T.test_signs) ... 
  test_signs (m.T.test_signs) (n=-2) ... FAIL
  test_signs (m.T.test_signs) (n=-3) ... FAIL
test_ok (m.T.test_ok) ... ok

======================================================================
FAIL: test_signs (m.T.test_signs) (n=-2)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/workspace/m.py", line 5, in test_signs
AssertionError: -2 not greater than 0

======================================================================
FAIL: test_signs (m.T.test_signs) (n=-3)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/workspace/m.py", line 5, in test_signs
AssertionError: -3 not greater than 0

----------------------------------------------------------------------
Ran 2 tests in 0.001s

FAILED (failures=2)
`, FormatUnittest, Counts{Passed: 1, Failed: 1}, []string{"m.T.test_signs"}},
		{"go json sibling whose name prefixes another", `{"Action":"run","Package":"p","Test":"TestX"}
{"Action":"run","Package":"p","Test":"TestX/a/b"}
{"Action":"fail","Package":"p","Test":"TestX/a/b","Elapsed":0}
{"Action":"run","Package":"p","Test":"TestX/a"}
{"Action":"pass","Package":"p","Test":"TestX/a","Elapsed":0}
{"Action":"fail","Package":"p","Test":"TestX","Elapsed":0}
{"Action":"fail","Package":"p","Elapsed":0}
`, FormatGoJSON, Counts{Passed: 1, Failed: 1}, []string{"p.TestX/a/b"}},
		{"go json parallel subtests left paused", `{"Action":"run","Package":"p","Test":"TestP"}
{"Action":"run","Package":"p","Test":"TestP/x/1"}
{"Action":"pause","Package":"p","Test":"TestP/x/1"}
{"Action":"run","Package":"p","Test":"TestP/x/2"}
{"Action":"pause","Package":"p","Test":"TestP/x/2"}
{"Action":"output","Package":"p","Output":"FAIL\tp\t0.01s\n"}
{"Action":"fail","Package":"p","Elapsed":0}
`, FormatGoJSON, Counts{Failed: 2, Unfinished: 2}, []string{"p.TestP/x/1", "p.TestP/x/2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := parseText(t, c.log)
			if rep.Format != c.format || rep.Counts != c.counts {
				t.Fatalf("format %s counts %+v, want %s %+v", rep.Format, rep.Counts, c.format, c.counts)
			}
			var got []string
			for _, x := range rep.Tests {
				if x.Status.failing() {
					got = append(got, x.ID)
				}
			}
			if strings.Join(got, ",") != strings.Join(c.failing, ",") {
				t.Errorf("failing tests %v, want %v", got, c.failing)
			}
		})
	}
}

// go test killed from outside (the step's deadline, OOM) prints no package
// result: the tests it left running are counted unfinished, not dropped.
func TestGoJSONStreamEndsMidTest(t *testing.T) {
	b, err := os.ReadFile("testdata/golden/go-json/sub-exit.log")
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	cut := strings.Index(log, `"Output":"FAIL\texample.com/svc/route`)
	cut = strings.LastIndexByte(log[:cut], '\n') + 1 // the real stream up to the running test
	rep := parseText(t, log[:cut])
	want := Counts{Passed: 5, Failed: 1, Unfinished: 1}
	if rep.Counts != want {
		t.Fatalf("counts %+v, want %+v", rep.Counts, want)
	}
	f := rep.Failures[0]
	if f.Test != "example.com/svc/route.TestSegment/a/b/out/of/range" || !strings.HasPrefix(f.Message, "did not finish: the output ended") {
		t.Errorf("failure %q: %q", f.Test, f.Message)
	}
	// The same cut log of a step that succeeded (its log hit the size
	// cap) gains no failure: truncation is reported, not guessed at.
	ok, err := Step(context.Background(), Input{Step: &glv1.Step{Name: "test", Phase: glv1.Phase_PHASE_TEST},
		Result: &glv1.StepResult{Status: glv1.StepStatus_STEP_STATUS_OK}, Log: strings.NewReader(log[:cut])})
	if err != nil {
		t.Fatal(err)
	}
	if ok.Counts != (Counts{Passed: 5}) || len(ok.Failures) != 0 {
		t.Errorf("succeeded step: counts %+v, %d failures", ok.Counts, len(ok.Failures))
	}
}
