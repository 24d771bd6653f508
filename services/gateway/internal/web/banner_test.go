package web

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/loopfake"
)

func step(name string, st glv1.StepStatus, exit int32) *glv1.StepResult {
	return &glv1.StepResult{Name: name, Command: "make " + name, Status: st, ExitCode: exit, Duration: durationpb.New(90e9)}
}

func finished(verdict glv1.Verdict, steps ...*glv1.StepResult) *glv1.Run {
	st := glv1.RunStatus_RUN_STATUS_PASSED
	if verdict != glv1.Verdict_VERDICT_PASS {
		st = glv1.RunStatus_RUN_STATUS_FAILED
	}
	return &glv1.Run{Id: "r", Status: st, Result: &glv1.Result{Status: verdict, Steps: steps}}
}

func TestBanner(t *testing.T) {
	ok, failed := glv1.StepStatus_STEP_STATUS_OK, glv1.StepStatus_STEP_STATUS_FAILED
	optionalFail := step("lint", failed, 1)
	optionalFail.Optional = true
	wrapped := step("go-test", failed, 1)
	wrapped.Command = "{ go test -json ./...; echo $? >rc; } | tee report.jsonl; exit $(cat rc)"
	wrapped.DisplayCommand = "go test -json ./..."
	tests := []struct {
		name  string
		run   *glv1.Run
		class string
		title string
	}{
		{"canned pass", loopfake.PassingFixRun("r", nil), bannerPass,
			"Execution passed: 4 steps ran in a real sandbox, exit codes 0"},
		{"one step", finished(glv1.Verdict_VERDICT_PASS, step("build", ok, 0), step("test", glv1.StepStatus_STEP_STATUS_SKIPPED, 0)), bannerPass,
			"Execution passed: 1 step ran in a real sandbox, exit codes 0"},
		{"optional failure does not hide", finished(glv1.Verdict_VERDICT_PASS, step("build", ok, 0), optionalFail), bannerPass,
			"Execution passed: 1 step ran in a real sandbox, exit codes 0"},
		{"pass without evidence", finished(glv1.Verdict_VERDICT_PASS), bannerError,
			"Not verified: PASS recorded without any executed step"},
		{"pass contradicted", finished(glv1.Verdict_VERDICT_PASS, step("build", ok, 0), step("test", failed, 2)), bannerError,
			"Inconsistent result: PASS recorded, but a required step did not succeed"},
		{"canned fail", loopfake.FailingVerifyRun("r", nil), bannerFail,
			"Execution failed: step go-test (go test -json ./...) exited with code 1"},
		{"wrapped command shows its display form", finished(glv1.Verdict_VERDICT_FAIL, step("build", ok, 0), wrapped), bannerFail,
			"Execution failed: step go-test (go test -json ./...) exited with code 1"},
		{"timeout", finished(glv1.Verdict_VERDICT_FAIL, step("build", ok, 0), step("test", glv1.StepStatus_STEP_STATUS_TIMED_OUT, -1)), bannerFail,
			"Execution failed: step test (make test) timed out after 1m30s"},
		{"oom", finished(glv1.Verdict_VERDICT_FAIL, step("test", glv1.StepStatus_STEP_STATUS_OOM_KILLED, 137)), bannerFail,
			"Execution failed: step test (make test) was killed: out of memory (exit code 137)"},
		{"fail without a failing step", finished(glv1.Verdict_VERDICT_FAIL, step("build", ok, 0)), bannerFail,
			"Execution failed: the required checks did not pass"},
		{"error verdict", &glv1.Run{Status: glv1.RunStatus_RUN_STATUS_ERROR, Error: "executor unreachable",
			Result: &glv1.Result{Status: glv1.Verdict_VERDICT_ERROR}}, bannerError,
			"Verification could not be carried out: nothing can be concluded about the code"},
		{"running", &glv1.Run{Status: glv1.RunStatus_RUN_STATUS_RUNNING}, bannerRunning, "Verification in progress: no verdict yet"},
		{"canceled", &glv1.Run{Status: glv1.RunStatus_RUN_STATUS_CANCELED}, bannerStopped,
			"Run canceled before a verdict: the code is not verified"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBanner(tt.run)
			if b.Class != tt.class || b.Title != tt.title {
				t.Fatalf("banner = %q %q, want %q %q", b.Class, b.Title, tt.class, tt.title)
			}
			if b.Class != bannerPass && strings.Contains(b.Title, "passed") {
				t.Fatalf("a %s banner claims a pass: %q", b.Class, b.Title)
			}
		})
	}
}

// A selective verification's banner says partial before the verdict, and
// names what was selected; an inconsistent PASS stays an error.
func TestPartialBanner(t *testing.T) {
	ok := glv1.StepStatus_STEP_STATUS_OK
	pass := finished(glv1.Verdict_VERDICT_PASS, step("build", ok, 0), step("test", ok, 0))
	pass.Result.Partial = &glv1.Partial{Tests: []string{"pkg.TestAdd"}}
	b := newBanner(pass)
	if b.Class != bannerPass || !strings.HasPrefix(b.Title, "Partial run · Execution passed") ||
		len(b.Detail) == 0 || !strings.Contains(b.Detail[0], "tests pkg.TestAdd") || !strings.Contains(b.Detail[0], "not the whole project") {
		t.Errorf("partial pass banner %+v", b)
	}
	fail := finished(glv1.Verdict_VERDICT_FAIL, step("test", glv1.StepStatus_STEP_STATUS_FAILED, 1))
	fail.Result.Partial = &glv1.Partial{Steps: []string{"test"}}
	if b := newBanner(fail); !strings.HasPrefix(b.Title, "Partial run · Execution failed") || !strings.Contains(b.Detail[0], "steps test") {
		t.Errorf("partial fail banner %+v", b)
	}
	full := finished(glv1.Verdict_VERDICT_PASS, step("build", ok, 0))
	if b := newBanner(full); strings.Contains(b.Title, "Partial") {
		t.Errorf("a full run's banner says partial: %+v", b)
	}
}

func TestPassBannerDetails(t *testing.T) {
	b := newBanner(loopfake.PassingFixRun("r", nil))
	want := "sandbox image " + loopfake.Image + " · level L4 (real test assertions) · score 10/10"
	if len(b.Detail) != 1 || b.Detail[0] != want {
		t.Fatalf("detail = %q, want %q", b.Detail, want)
	}
}

func TestDiffLines(t *testing.T) {
	lines, truncated := diffLines(loopfake.PatchDiff)
	if truncated {
		t.Fatal("short diff truncated")
	}
	count := map[string]int{}
	for _, l := range lines {
		count[l.Class]++
	}
	if count["add"] != 6 || count["del"] != 1 || count["hunk"] != 2 || count["file"] != 2 {
		t.Fatalf("classes = %v, want 6 add, 1 del, 2 hunk, 2 file", count)
	}
	long := strings.Repeat("+x\n", maxDiffLines+10)
	if lines, truncated := diffLines(long); !truncated || len(lines) != maxDiffLines {
		t.Fatalf("long diff: %d lines, truncated %v", len(lines), truncated)
	}
}

func TestFormatDuration(t *testing.T) {
	tests := map[float64]string{0: "—", 0.412: "412ms", 2.134: "2.13s", 63.4: "1m03s"}
	for secs, want := range tests {
		if got := formatDuration(durationpb.New(0).AsDuration() + secondsDur(secs)); got != want {
			t.Errorf("formatDuration(%vs) = %q, want %q", secs, got, want)
		}
	}
}
