package report

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/contract"
	"github.com/greenlight-dev/greenlight/services/loop/internal/locate"
	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
)

const golden = "../parse/testdata/golden"

// outcome builds a step outcome without a parsed report.
func outcome(name string, phase glv1.Phase, st glv1.StepStatus, optional bool) score.StepOutcome {
	return score.StepOutcome{
		Step:   &glv1.Step{Name: name, Phase: phase, Optional: optional},
		Result: &glv1.StepResult{Name: name, Phase: phase, Status: st, ExitCode: exitOf(st)},
	}
}

func exitOf(st glv1.StepStatus) int32 {
	if st == glv1.StepStatus_STEP_STATUS_OK {
		return 0
	}
	return 1
}

const (
	okS      = glv1.StepStatus_STEP_STATUS_OK
	failS    = glv1.StepStatus_STEP_STATUS_FAILED
	skipS    = glv1.StepStatus_STEP_STATUS_SKIPPED
	errS     = glv1.StepStatus_STEP_STATUS_ERROR
	timeoutS = glv1.StepStatus_STEP_STATUS_TIMED_OUT
	buildP   = glv1.Phase_PHASE_BUILD
	testP    = glv1.Phase_PHASE_TEST
	lintP    = glv1.Phase_PHASE_LINT
)

// realStep parses a captured golden log as one step of a pipeline.
func realStep(t *testing.T, name, log, src, workdir string, phase glv1.Phase, exit int32) score.StepOutcome {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(golden, log+".log"))
	if err != nil {
		t.Fatal(err)
	}
	st := okS
	if exit != 0 {
		st = failS
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	tail := strings.Join(lines[max(0, len(lines)-MaxTailLines):], "\n")
	o := score.StepOutcome{
		Step: &glv1.Step{Name: name, Phase: phase, Workdir: workdir, Command: "cmd " + name},
		Result: &glv1.StepResult{Name: name, Phase: phase, Workdir: workdir, Command: "cmd " + name, Status: st, ExitCode: exit,
			Duration: durationpb.New(1500 * time.Millisecond), Tail: tail, LogDigest: &glv1.Digest{Hash: strings.Repeat("a", 64), SizeBytes: int64(len(data))}},
	}
	o.Report, err = parse.Step(context.Background(), parse.Input{Step: o.Step, Result: o.Result, Log: strings.NewReader(string(data)),
		Files: os.DirFS(filepath.Join(golden, "src", src))})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func goPipeline(t *testing.T) []score.StepOutcome {
	return []score.StepOutcome{
		realStep(t, "go-build", "go-build/pass", "go", "svc", buildP, 0),
		realStep(t, "go-vet", "go-build/vet", "go-vet", "svc", lintP, 1),
		realStep(t, "go-test", "go-json/fail", "go", "svc", testP, 1),
	}
}

func TestBuildFromRealSteps(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := Build(Input{RunID: "run-1", Started: start, Finished: start.Add(time.Minute), CommitSHA: "abc123",
		Platform: &glv1.Platform{Os: "linux", Arch: "amd64", ContainerImage: "greenlight/sandbox-go:latest"}, Steps: goPipeline(t)})
	if r.GetStatus() != glv1.Verdict_VERDICT_FAIL || !strings.Contains(r.GetSummary(), "go-vet") || !strings.Contains(r.GetSummary(), "go-test") {
		t.Fatalf("status %s %q", r.GetStatus(), r.GetSummary())
	}
	c := r.GetCounts()
	if c.GetPassed() != 4 || c.GetFailed() != 1 || c.GetSkipped() != 1 || c.GetTotal() != 6 || c.GetFormat() != "go-json" {
		t.Errorf("counts %+v", c)
	}
	if len(r.GetFailures()) != 2 {
		t.Fatalf("failures %+v", r.GetFailures())
	}
	vet, test := r.GetFailures()[0], r.GetFailures()[1]
	if vet.GetKind() != glv1.FailureKind_FAILURE_KIND_LINT || vet.GetFile() != "svc/util/fmt.go" || vet.GetEvidence().GetStep() != "go-vet" {
		t.Errorf("vet failure %+v", vet)
	}
	if test.GetFile() != "svc/calc/calc_test.go" || test.GetLine() != 38 || test.GetEvidence().GetCommand() != "cmd go-test" || test.GetEvidence().GetExitCode() != 1 {
		t.Errorf("test failure %+v", test)
	}
	sc := r.GetScore()
	// build 3 + tests 4×4/5 + lint 1 (1 issue) + no critical 1.
	if sc.GetTotal() != 8.2 || sc.GetLevel() != glv1.Level_LEVEL_L3 || r.GetLevel() != glv1.Level_LEVEL_L3 {
		t.Errorf("score %+v", sc)
	}
	if got := r.GetSteps()[2].GetCounts().GetFailed(); got != 1 || r.GetSteps()[1].GetLintIssues() != 1 {
		t.Errorf("per-step counts not filled: %+v", r.GetSteps())
	}
	if n := len(strings.Split(r.GetTailLog(), "\n")); n > MaxTailLines {
		t.Errorf("tail log has %d lines", n)
	}
	m := r.GetManifest()
	if len(m.GetCommandsExecuted()) != 3 || m.GetCommandsExecuted()[2].GetExitCode() != 1 || m.GetCommandsExecuted()[2].GetDurationMs() != 1500 {
		t.Errorf("manifest %+v", m.GetCommandsExecuted())
	}
	wantArts := []string{"logs/step-01-go-build.log", "logs/step-02-go-vet.log", "logs/step-03-go-test.log"}
	if fmt.Sprint(r.GetArtifactPaths()) != fmt.Sprint(wantArts) {
		t.Errorf("artifact paths %v", r.GetArtifactPaths())
	}

	raw, err := contract.Marshal(contract.FromResult(r))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Status        string   `json:"status"`
		RunID         string   `json:"run_id"`
		TailLog       string   `json:"tail_log"`
		ArtifactPaths []string `json:"artifact_paths"`
		Manifest      struct {
			TimestampStart   string `json:"timestamp_start"`
			CommitSHA        string `json:"commit_sha"`
			CommandsExecuted []struct {
				Name       string `json:"name"`
				Command    string `json:"command"`
				ExitCode   *int   `json:"exit_code"`
				DurationMs int64  `json:"duration_ms"`
			} `json:"commands_executed"`
			Platform struct {
				ContainerImage string `json:"container_image"`
			} `json:"platform"`
		} `json:"manifest"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Status != "FAIL" || doc.RunID != "run-1" || doc.TailLog == "" || len(doc.ArtifactPaths) != 3 ||
		doc.Manifest.TimestampStart != "2026-01-02T03:04:05Z" || doc.Manifest.CommitSHA != "abc123" ||
		len(doc.Manifest.CommandsExecuted) != 3 || doc.Manifest.CommandsExecuted[2].ExitCode == nil ||
		*doc.Manifest.CommandsExecuted[2].ExitCode != 1 || doc.Manifest.CommandsExecuted[2].DurationMs != 1500 || doc.Manifest.Platform.ContainerImage == "" {
		t.Errorf("output contract JSON: %s", raw)
	}
}

func TestTailLogCapped(t *testing.T) {
	var steps []score.StepOutcome
	for i := 0; i < 3; i++ {
		var b strings.Builder
		for j := 0; j < 150; j++ {
			fmt.Fprintf(&b, "step %d line %d\n", i, j)
		}
		o := outcome(fmt.Sprintf("s%d", i), testP, okS, false)
		o.Result.Tail = b.String()
		steps = append(steps, o)
	}
	lines := strings.Split(TailLog(steps), "\n")
	if len(lines) != MaxTailLines || lines[len(lines)-1] != "step 2 line 149" {
		t.Fatalf("%d lines, last %q", len(lines), lines[len(lines)-1])
	}
}

func TestCutKeepsEvidence(t *testing.T) {
	var in []string
	for i := 1; i <= 1000; i++ {
		switch i {
		case 500:
			in = append(in, "src/app.py:12: AssertionError: expected 3 got 4")
		case 700:
			in = append(in, "panic: runtime error: index out of range")
		default:
			in = append(in, fmt.Sprintf("ok line %d", i))
		}
	}
	out := Cut(strings.Join(in, "\n"), 40)
	lines := strings.Split(out, "\n")
	for _, want := range []string{"ok line 1", "ok line 10", "src/app.py:12: AssertionError: expected 3 got 4", "panic: runtime error: index out of range", "ok line 1000", "ok line 981", "… [489 lines cut] …"} {
		if !contains(lines, want) {
			t.Errorf("cut output lacks %q:\n%s", want, out)
		}
	}
	if len(lines) > 45 {
		t.Errorf("cut to %d lines", len(lines))
	}
	if short := "a\nb"; Cut(short, 40) != short {
		t.Error("short text changed")
	}
}

func contains(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}

// TestRenderPromptQuotesFailuresCodeAndLog checks a patch request's
// prompt: the failing command, each failure quoted exactly, the code
// windows, the log cut with its error line kept, the limits and feedback.
func TestRenderPromptQuotesFailuresCodeAndLog(t *testing.T) {
	steps := goPipeline(t)
	test := steps[2]
	fails := test.Report.Failures
	var logLines []string
	for i := 0; i < 300; i++ {
		logLines = append(logLines, fmt.Sprintf("noise %d", i))
	}
	logLines[150] = "    calc_test.go:38: Add(2, 2) = 4, want 5"
	req := &glv1.PatchRequest{Attempt: 2, FailingCommand: "go test -json ./...", Workdir: "svc", ExitCode: 1,
		LogTail: strings.Join(logLines, "\n"), Failures: test.Report.FailuresProto(),
		Windows:     locate.FromFailures(fails, os.DirFS(filepath.Join(golden, "src", "go"))),
		Constraints: &glv1.Guardrails{MaxChangedLines: 10}, Feedback: "patch did not apply: hunk 1 failed"}
	p := RenderPrompt(req)
	for _, want := range []string{"`go test -json ./...` in `svc` exited with code 1", "### 1. TEST_ASSERTION at `svc/calc/calc_test.go:38`",
		"calc_test.go:38: Add(2, 2) = 4, want 5", "`svc/calc/calc_test.go` lines 1–45 (focus 38)", ">38 | \t\t\tt.Errorf(\"Add(2, 2) = %d, want 5\", got)",
		"    calc_test.go:38: Add(2, 2) = 4, want 5\n", "lines cut] …", "Change at most 10 lines.", "patch did not apply: hunk 1 failed", "<patch>"} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
}

// A passing test step whose stored log was cut, parsed for real: the
// result is an ERROR without a score, and its counts say they are
// incomplete, per step and in total.
func TestCutTestLogWithoutReportCannotPass(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(golden, "go-json/pass.log"))
	if err != nil {
		t.Fatal(err)
	}
	log := string(data[:len(data)/2])
	step := &glv1.Step{Name: "go-test", Phase: testP, Workdir: "svc", Command: "go test -json ./..."}
	res := &glv1.StepResult{Name: "go-test", Phase: testP, Workdir: "svc", Status: okS, Truncated: true, OutputBytes: int64(len(data))}
	rep, err := parse.Step(context.Background(), parse.Input{Step: step, Result: res, Log: strings.NewReader(log)})
	if err != nil {
		t.Fatal(err)
	}
	build := realStep(t, "go-build", "go-build/pass", "go", "svc", buildP, 0)
	r := Build(Input{RunID: "run-1", Steps: []score.StepOutcome{build, {Step: step, Result: res, Report: rep}}, Threshold: 8})
	if r.GetStatus() != glv1.Verdict_VERDICT_ERROR || !strings.Contains(r.GetSummary(), "test counts incomplete, cannot pass: go-test (the test log was cut") {
		t.Fatalf("status %s %q", r.GetStatus(), r.GetSummary())
	}
	if r.GetScore() != nil {
		t.Errorf("an ERROR carries a score: %v", r.GetScore())
	}
	if c := r.GetCounts(); !c.GetIncomplete() || !strings.HasPrefix(c.GetIncompleteReason(), "go-test: the test log was cut at the per-step cap") {
		t.Errorf("result counts %v", c)
	}
	if c := r.GetSteps()[1].GetCounts(); !c.GetIncomplete() || c.GetIncompleteReason() == "" {
		t.Errorf("step counts %v", c)
	}
}

// TestRequiredFailuresComeFirst: the failures of required steps lead the
// result's list (they decided the verdict); an advisory step's failures
// follow even when that step ran first.
func TestRequiredFailuresComeFirst(t *testing.T) {
	lint := outcome("ruff", lintP, failS, true)
	lint.Report = &parse.StepReport{Step: "ruff", Failures: []parse.Failure{{Kind: glv1.FailureKind_FAILURE_KIND_LINT, Message: "E501 line too long"}}}
	test := outcome("pytest", testP, failS, false)
	test.Report = &parse.StepReport{Step: "pytest", HasTests: true, Counts: parse.Counts{Failed: 1},
		Failures: []parse.Failure{{Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION, Test: "tests/test_a.py::test_a"}}}
	r := Build(Input{RunID: "run-1", Steps: []score.StepOutcome{lint, test}, Threshold: 8})
	fs := r.GetFailures()
	if len(fs) != 2 || fs[0].GetTest() != "tests/test_a.py::test_a" || fs[1].GetMessage() != "E501 line too long" {
		t.Fatalf("failures %v, want the required test failure first, then the advisory lint", fs)
	}
}

// Each step of the result says where its command came from (the planned
// step's source), also for a step that never ran; the planned step is not
// shared with the result.
func TestStepsSayWhereTheirCommandCameFrom(t *testing.T) {
	steps := goPipeline(t)
	ci := &glv1.CommandSource{Origin: "ci", File: ".github/workflows/ci.yml", Key: "jobs.test.steps[2].run", Line: 31}
	steps[2].Step.Source = ci
	steps = append(steps, score.StepOutcome{Step: &glv1.Step{Name: "lint", Phase: glv1.Phase_PHASE_LINT,
		Source: &glv1.CommandSource{Origin: "discovered", File: "Makefile", Key: "lint", Line: 7}}})
	r := Build(Input{RunID: "run-1", Steps: steps})
	got := r.GetSteps()
	if len(got) != 4 || !proto.Equal(got[2].GetSource(), ci) || got[0].GetSource() != nil ||
		got[3].GetSource().GetOrigin() != "discovered" || got[3].GetSource().GetLine() != 7 {
		t.Fatalf("sources: %v", got)
	}
	if got[2].GetSource() == ci {
		t.Fatal("the result shares the planned step's source")
	}
}
