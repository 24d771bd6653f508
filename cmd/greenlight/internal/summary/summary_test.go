package summary

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/contract"
)

func failedRun() *glv1.Run {
	return &glv1.Run{
		Id: "r_1", Kind: glv1.RunKind_RUN_KIND_FIX, Status: glv1.RunStatus_RUN_STATUS_FAILED,
		Result: &glv1.Result{
			Status: glv1.Verdict_VERDICT_FAIL, RunId: "r_1", Summary: "FAIL: pytest (failed, exit 1)",
			Steps: []*glv1.StepResult{
				{Name: "install", Phase: glv1.Phase_PHASE_INSTALL, Status: glv1.StepStatus_STEP_STATUS_OK, CacheHit: true, Duration: durationpb.New(time.Second)},
				{Name: "pytest", Phase: glv1.Phase_PHASE_TEST, Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1,
					Duration: durationpb.New(2 * time.Second), Counts: &glv1.TestCounts{Passed: 2, Failed: 1, Total: 3}},
			},
			Counts:   &glv1.TestCounts{Passed: 2, Failed: 1, Total: 3, Format: "pytest-junit"},
			Failures: []*glv1.Failure{{File: "tests/test_t.py", Line: 17, Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION, Test: "test_feels", Message: "assert 'mild' == 'hot'\nmore"}},
			Score:    &glv1.Score{Total: 6.7, Build: 3, Tests: 2.7, NoCritical: 1},
			Level:    glv1.Level_LEVEL_L3,
			TailLog:  "E assert 'mild' == 'hot'",
		},
		Metrics: &glv1.FixMetrics{Rounds: 2, Rollbacks: 1, StopReason: "max_rounds"},
		Patches: []*glv1.PatchOutcome{
			{Attempt: 1, Applied: true, RolledBack: true, Diff: "--- rolled back"},
			{Attempt: 2, Applied: true, Diff: "--- a/x\n+++ b/x\n", LinesAdded: 1, LinesRemoved: 1},
		},
	}
}

func TestText(t *testing.T) {
	tests := []struct {
		name   string
		opts   Options
		want   []string
		absent []string
	}{
		{name: "with report URL", opts: Options{ReportURL: "http://127.0.0.1:7080/runs/r_1"}, want: []string{
			" FAIL  pytest (failed, exit 1)\n",
			"  2  pytest   TEST     FAILED  1     2.0s      ",
			"hit",
			"Tests:    2 passed, 1 failed of 3 (pytest-junit)",
			"  tests/test_t.py:17  TEST_ASSERTION  test_feels: assert 'mild' == 'hot'\n",
			"Score:    6.7/10",
			"level L3",
			"Repair:   not green; 2 round(s), 1 rollback(s)",
			"Report:   http://127.0.0.1:7080/runs/r_1",
		}, absent: []string{"\x1b[", "more"}},
		{name: "hint and color", opts: Options{Color: true, Hint: "greenlight show r_1"}, want: []string{
			"\x1b[1;37;41m FAIL \x1b[0m", "Report:   greenlight show r_1",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			Text(&b, failedRun(), tc.opts)
			for _, w := range tc.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("summary lacks %q:\n%s", w, b.String())
				}
			}
			for _, w := range tc.absent {
				if strings.Contains(b.String(), w) {
					t.Errorf("summary contains %q:\n%s", w, b.String())
				}
			}
		})
	}
}

func TestPassBannerSaysExecutionPassed(t *testing.T) {
	run := &glv1.Run{Id: "r_2", Status: glv1.RunStatus_RUN_STATUS_PASSED,
		Result: &glv1.Result{Status: glv1.Verdict_VERDICT_PASS, Summary: "PASS: every required step finished OK"}}
	var b bytes.Buffer
	Text(&b, run, Options{})
	if !strings.HasPrefix(b.String(), " PASS  execution passed: every required step finished OK\n") {
		t.Errorf("banner = %q", strings.SplitN(b.String(), "\n", 2)[0])
	}
}

// A selective run's banner says partial before anything else, and the
// contract carries what ran.
func TestPartialRunSaysSo(t *testing.T) {
	run := &glv1.Run{Id: "r_3", Status: glv1.RunStatus_RUN_STATUS_PASSED,
		Result: &glv1.Result{Status: glv1.Verdict_VERDICT_PASS, Partial: &glv1.Partial{Tests: []string{"pkg.TestAdd"}},
			Summary: "PASS: every required step finished OK; partial: only tests pkg.TestAdd ran, not the whole project"}}
	var b bytes.Buffer
	Text(&b, run, Options{})
	if first := strings.SplitN(b.String(), "\n", 2)[0]; !strings.HasPrefix(first, " PASS (partial)  execution passed") ||
		!strings.Contains(first, "not the whole project") {
		t.Errorf("banner = %q", first)
	}
	j, err := JSON(run)
	if err != nil {
		t.Fatal(err)
	}
	var got contract.Result
	if err := json.Unmarshal(j, &got); err != nil || got.Partial == nil || len(got.Partial.Tests) != 1 || got.Partial.Tests[0] != "pkg.TestAdd" {
		t.Errorf("contract partial %+v (%v)", got.Partial, err)
	}
}

func TestJSONIsTheContract(t *testing.T) {
	b, err := JSON(failedRun())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"status": "FAIL"`, `"run_id": "r_1"`, `"tail_log"`, `"artifact_paths": []`, `"schema_version": "greenlight.contract/v1"`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("contract JSON lacks %s:\n%s", want, b)
		}
	}
	var back contract.Result
	if err := json.Unmarshal(b, &back); err != nil || back.RunID != "r_1" || back.Status != "FAIL" {
		t.Errorf("round trip: %+v %v", back, err)
	}
}

func TestRunsTable(t *testing.T) {
	var b bytes.Buffer
	RunsTable(&b, []*glv1.Run{{Id: "r_1", Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: glv1.RunStatus_RUN_STATUS_PASSED, SourceDir: "/src"}})
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "RUN") || !strings.Contains(lines[1], "r_1") || !strings.Contains(lines[1], "PASSED") || !strings.HasSuffix(lines[1], "/src") {
		t.Errorf("runs table:\n%s", b.String())
	}
}

func TestErrorShowsNoScore(t *testing.T) {
	// A server before issue 11 stored the 5.0 "needs human review" score
	// with an ERROR where nothing ran.
	run := &glv1.Run{Id: "r_3", Status: glv1.RunStatus_RUN_STATUS_ERROR,
		Result: &glv1.Result{Status: glv1.Verdict_VERDICT_ERROR, Summary: "ERROR: no step ran",
			Score: &glv1.Score{Total: 5, Rule: "default: no step ran and no model score: 5.0, needs human review"}}}
	var b bytes.Buffer
	Text(&b, run, Options{})
	if strings.Contains(b.String(), "Score") || strings.Contains(b.String(), "5.0/10") {
		t.Errorf("an ERROR shows a score:\n%s", b.String())
	}
}

func TestAdvisoryStepsAreMarked(t *testing.T) {
	run := &glv1.Run{Id: "r_4", Status: glv1.RunStatus_RUN_STATUS_PASSED,
		Result: &glv1.Result{Status: glv1.Verdict_VERDICT_PASS, Summary: "PASS: every required step that ran finished OK",
			Steps: []*glv1.StepResult{
				{Name: "mypy", Phase: glv1.Phase_PHASE_TYPECHECK, Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1, Optional: true},
				{Name: "ruff", Phase: glv1.Phase_PHASE_LINT, Status: glv1.StepStatus_STEP_STATUS_SKIPPED, Optional: true,
					Reason: "tool not available in greenlight/sandbox-python:latest: ruff"},
				{Name: "pytest", Phase: glv1.Phase_PHASE_TEST, Status: glv1.StepStatus_STEP_STATUS_OK},
			}}}
	var b bytes.Buffer
	Text(&b, run, Options{})
	for _, w := range []string{"FAILED (advisory)", "SKIPPED (advisory)", "  ruff: tool not available in greenlight/sandbox-python:latest: ruff\n"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("summary lacks %q:\n%s", w, b.String())
		}
	}
	if strings.Contains(b.String(), "OK (advisory)") {
		t.Errorf("a required step is marked advisory:\n%s", b.String())
	}
}

func TestIncompleteCountsAreShown(t *testing.T) {
	why := "the test log was cut at the per-step cap (4194304 of 9000000 bytes stored) and no machine-readable report was collected"
	counts := &glv1.TestCounts{Passed: 44, Total: 44, Format: "go-json", Incomplete: true, IncompleteReason: why}
	run := &glv1.Run{Id: "r_5", Status: glv1.RunStatus_RUN_STATUS_ERROR,
		Result: &glv1.Result{Status: glv1.Verdict_VERDICT_ERROR, Summary: "ERROR: test counts incomplete, cannot pass: go-test (" + why + ")",
			Steps: []*glv1.StepResult{{Name: "go-test", Phase: glv1.Phase_PHASE_TEST, Status: glv1.StepStatus_STEP_STATUS_OK, Truncated: true,
				Counts: proto.Clone(counts).(*glv1.TestCounts)}},
			Counts: &glv1.TestCounts{Passed: 44, Total: 44, Format: "go-json", Incomplete: true, IncompleteReason: "go-test: " + why}}}
	var b bytes.Buffer
	Text(&b, run, Options{})
	for _, want := range []string{"44 passed, 0 failed, INCOMPLETE", "Tests:    44 passed, 0 failed, INCOMPLETE of 44 (go-json)",
		"counts incomplete: go-test: the test log was cut at the per-step cap"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	raw, err := JSON(run)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"incomplete": true`, `"incomplete_reason": "go-test: the test log was cut`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("JSON lacks %q:\n%s", want, raw)
		}
	}
}
