package engine_test

import (
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

const pyImage = "greenlight/sandbox-python:latest"

// fakeStep is a step the fake executor ends with exit and log.
func fakeStep(name string, phase glv1.Phase, command string, optional bool, exit, log string) *glv1.Step {
	return &glv1.Step{Name: name, Phase: phase, Command: command, Tier: glv1.Tier_TIER_0, Optional: optional, Image: pyImage,
		Env: map[string]string{"FAKE_EXIT": exit, "FAKE_LOG": log}}
}

func stepResult(t *testing.T, res *glv1.Result, name string) *glv1.StepResult {
	t.Helper()
	for _, s := range res.GetSteps() {
		if s.GetName() == name {
			return s
		}
	}
	t.Fatalf("no step %q in %v", name, res.GetSteps())
	return nil
}

func TestAdvisoryStepNeverFailsTheVerdict(t *testing.T) {
	tests := []struct {
		name       string
		step       *glv1.Step
		status     glv1.StepStatus
		reasonHas  string
		lintPoints float64
	}{
		{"module missing", fakeStep("ruff", glv1.Phase_PHASE_LINT, ".venv/bin/python -m ruff check .", true, "1", ".venv/bin/python: No module named ruff\n"),
			glv1.StepStatus_STEP_STATUS_SKIPPED, "tool not available in " + pyImage + ": ruff", 0},
		{"program missing", fakeStep("flake8", glv1.Phase_PHASE_LINT, "flake8 .", true, "127", "/bin/sh: 1: flake8: not found\n"),
			glv1.StepStatus_STEP_STATUS_SKIPPED, "tool not available in " + pyImage + ": flake8", 0},
		{"findings", fakeStep("mypy", glv1.Phase_PHASE_TYPECHECK, "python3 -m mypy .", true, "1", "app.py:3: error: Incompatible return value  [return-value]\nFound 1 error in 1 file (checked 2 source files)\n"),
			glv1.StepStatus_STEP_STATUS_FAILED, "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, engine.Config{}, append(enginetest.CalcSteps(), tt.step)...)
			run, _ := h.verify(&glv1.VerifyRequest{Snapshot: h.snapshot(fixed())})
			res := run.GetResult()
			if res.GetStatus() != glv1.Verdict_VERDICT_PASS {
				t.Fatalf("verdict %s: %s", res.GetStatus(), res.GetSummary())
			}
			s := stepResult(t, res, tt.step.GetName())
			if s.GetStatus() != tt.status || !strings.Contains(s.GetReason(), tt.reasonHas) {
				t.Errorf("%s: status %s reason %q, want %s %q", s.GetName(), s.GetStatus(), s.GetReason(), tt.status, tt.reasonHas)
			}
			if sc := res.GetScore(); sc.GetLint() != tt.lintPoints || sc.GetLevel() != glv1.Level_LEVEL_L4 {
				t.Errorf("score %v", sc)
			}
		})
	}
}

func TestRequiredStepWithMissingTool(t *testing.T) {
	tests := []struct {
		name    string
		step    *glv1.Step
		verdict glv1.Verdict
		want    []string
	}{
		{"own program missing is an ERROR", fakeStep("flake8", glv1.Phase_PHASE_LINT, "flake8 .", false, "127", "/bin/sh: 1: flake8: not found\n"),
			glv1.Verdict_VERDICT_ERROR, []string{"tool not available in " + pyImage + ": flake8", "images", "images/python/packages", "`make images IMAGES=python`"}},
		{"own module missing is an ERROR", fakeStep("lint", glv1.Phase_PHASE_LINT, "python3 -m flake8", false, "1", "/usr/bin/python3: No module named flake8\n"),
			glv1.Verdict_VERDICT_ERROR, []string{"tool not available in " + pyImage + ": flake8"}},
		{"a script's exit 127 is a failure", fakeStep("lint", glv1.Phase_PHASE_LINT, "./ci/lint.sh", false, "127", "./ci/lint.sh: 3: flake8: not found\n"),
			glv1.Verdict_VERDICT_FAIL, []string{"lint (failed, exit 127)"}},
		{"a later command's exit 127 is a failure", fakeStep("lint", glv1.Phase_PHASE_LINT, "true && flake8 .", false, "127", "/bin/sh: 1: flake8: not found\n"),
			glv1.Verdict_VERDICT_FAIL, []string{"lint (failed, exit 127)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, engine.Config{}, append(enginetest.CalcSteps(), tt.step)...)
			run, _ := h.verify(&glv1.VerifyRequest{Snapshot: h.snapshot(fixed())})
			res := run.GetResult()
			if res.GetStatus() != tt.verdict {
				t.Fatalf("verdict %s, want %s: %s", res.GetStatus(), tt.verdict, res.GetSummary())
			}
			for _, w := range tt.want {
				if !strings.Contains(res.GetSummary(), w) {
					t.Errorf("summary %q lacks %q", res.GetSummary(), w)
				}
			}
		})
	}
}

func TestTestStepWithoutParsedTestsIsNotL4(t *testing.T) {
	h := newHarness(t, engine.Config{}, enginetest.CalcSteps()[0],
		fakeStep("test", glv1.Phase_PHASE_TEST, "true", false, "0", " "))
	run, _ := h.verify(&glv1.VerifyRequest{Snapshot: h.snapshot(fixed())})
	res := run.GetResult()
	if res.GetLevel() != glv1.Level_LEVEL_L3 || res.GetScore().GetLevel() != glv1.Level_LEVEL_L3 {
		t.Fatalf("level %s (score level %s), want L3", res.GetLevel(), res.GetScore().GetLevel())
	}
	if r := res.GetScore().GetRule(); !strings.Contains(r, "level L3, not L4: no passing test result was parsed from test") {
		t.Errorf("rule %q does not say why the level is L3", r)
	}
}

func TestFailingVerdictScoresBelowThreshold(t *testing.T) {
	lint := fakeStep("ruff", glv1.Phase_PHASE_LINT, "ruff check .", false, "0", "All checks passed!\n")
	smoke := fakeStep("cli-help", glv1.Phase_PHASE_SMOKE, "python3 -m calc --help", false, "2", "usage error\n")
	h := newHarness(t, engine.Config{}, append(enginetest.CalcSteps(), lint, smoke)...)
	run, _ := h.verify(&glv1.VerifyRequest{Snapshot: h.snapshot(fixed())})
	res := run.GetResult()
	if res.GetStatus() != glv1.Verdict_VERDICT_FAIL {
		t.Fatalf("verdict %s: %s", res.GetStatus(), res.GetSummary())
	}
	sc := res.GetScore()
	if sc.GetTotal() >= engine.DefaultScoreThreshold || sc.GetTotal() != 7.9 {
		t.Errorf("a FAIL scored %g (threshold %g)", sc.GetTotal(), engine.DefaultScoreThreshold)
	}
	if !strings.Contains(sc.GetRule(), "capped from 9 to 7.9: a failing verdict never scores at or above the pass threshold 8") {
		t.Errorf("rule %q does not say the score was capped", sc.GetRule())
	}
}

func TestErrorCarriesNoScore(t *testing.T) {
	tests := []struct {
		name  string
		steps []*glv1.Step
		setup func(h *harness)
	}{
		{"nothing ran", enginetest.CalcSteps(), func(h *harness) {
			h.disc.SetError(status.Error(codes.Unavailable, "discovery is down"))
		}},
		{"required tool missing", append(enginetest.CalcSteps(),
			fakeStep("flake8", glv1.Phase_PHASE_LINT, "flake8 .", false, "127", "/bin/sh: 1: flake8: not found\n")), func(*harness) {}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, engine.Config{}, tt.steps...)
			tt.setup(h)
			run, evs := h.verify(&glv1.VerifyRequest{Snapshot: h.snapshot(fixed())})
			res := run.GetResult()
			if res.GetStatus() != glv1.Verdict_VERDICT_ERROR {
				t.Fatalf("verdict %s: %s", res.GetStatus(), res.GetSummary())
			}
			if res.GetScore() != nil || count(evs, "score") != 0 {
				t.Errorf("an ERROR shows a score: %v (%d score events)", res.GetScore(), count(evs, "score"))
			}
			for _, ev := range evs {
				if d := ev.GetVerificationDone(); d != nil && d.GetScore() != nil {
					t.Errorf("VerificationDone of an ERROR carries score %v", d.GetScore())
				}
			}
		})
	}
}
