package engine_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

// pyTest is one test of a fake pytest suite: whether it passes in the full
// run and when it runs again alone.
type pyTest struct {
	name          string
	first, rerun  bool
	assertionLine int
}

// pytestCommand is the planned test command of the fake suites.
const pytestCommand = "python3 -m pytest -rA"

// reQuotedID finds the test ids a re-run command selects.
var reQuotedID = regexp.MustCompile(`'(tests/[^']+)'`)

// flakyJudge runs a fake pytest suite: the planned "pytest" step prints
// the full run, its identical re-run ("pytest:rerun") the full run with
// each test's re-run outcome, a command naming test ids prints those
// tests alone with their re-run outcome; any other step follows its
// FAKE_EXIT env.
func flakyJudge(tests []pyTest) enginetest.Judge {
	return func(step *glv1.Step, files map[string]string) enginetest.Outcome {
		if !strings.Contains(step.GetCommand(), "pytest") {
			return enginetest.CalcJudge(step, files)
		}
		if step.GetCommand() == pytestCommand {
			return pytestRun(tests, strings.HasSuffix(step.GetName(), ":rerun"))
		}
		var selected []pyTest
		for _, m := range reQuotedID.FindAllStringSubmatch(step.GetCommand(), -1) {
			for _, t := range tests {
				if "tests/test_suite.py::"+t.name == m[1] {
					selected = append(selected, t)
				}
			}
		}
		return pytestRun(selected, true)
	}
}

// pytestRun renders `pytest -rA` output for tests.
func pytestRun(tests []pyTest, rerun bool) enginetest.Outcome {
	var b, summary strings.Builder
	fmt.Fprintf(&b, "============================= test session starts ==============================\ncollected %d items\n\ntests/test_suite.py ", len(tests))
	failed := 0
	var failures strings.Builder
	for _, t := range tests {
		pass := t.first
		if rerun {
			pass = t.rerun
		}
		if pass {
			b.WriteString(".")
			fmt.Fprintf(&summary, "PASSED tests/test_suite.py::%s\n", t.name)
			continue
		}
		failed++
		b.WriteString("F")
		fmt.Fprintf(&failures, "_________________________________ %s _________________________________\n\n    def %s():\n>       assert state() == 1\nE       assert 0 == 1\n\ntests/test_suite.py:%d: AssertionError\n",
			t.name, t.name, t.assertionLine)
		fmt.Fprintf(&summary, "FAILED tests/test_suite.py::%s - assert 0 == 1\n", t.name)
	}
	b.WriteString("                                                    [100%]\n\n")
	if failed > 0 {
		b.WriteString("=================================== FAILURES ===================================\n" + failures.String())
	}
	b.WriteString("=========================== short test summary info ============================\n" + summary.String())
	passed := len(tests) - failed
	switch {
	case failed == 0:
		fmt.Fprintf(&b, "============================== %d passed in 0.01s ===============================\n", passed)
	case passed == 0:
		fmt.Fprintf(&b, "============================== %d failed in 0.01s ===============================\n", failed)
	default:
		fmt.Fprintf(&b, "========================= %d failed, %d passed in 0.01s ==========================\n", failed, passed)
	}
	return enginetest.Outcome{Exit: min(failed, 1), Log: b.String(), Chunks: 1}
}

// flakySteps is a compileall, the pytest step and a smoke step after it
// that exits smokeExit.
func flakySteps(smokeExit int) []*glv1.Step {
	smoke := enginetest.Step("smoke", glv1.Tier_TIER_0, glv1.Phase_PHASE_SMOKE, smokeExit, 0)
	smoke.Level = glv1.Level_LEVEL_L3
	return []*glv1.Step{
		enginetest.CalcSteps()[0],
		{Name: "pytest", Phase: glv1.Phase_PHASE_TEST, Command: pytestCommand, Tier: glv1.Tier_TIER_0, Level: glv1.Level_LEVEL_L4,
			Workdir: "api", Image: "greenlight/sandbox-python:latest", Env: map[string]string{"APP_ENV": "test"}},
		smoke,
	}
}

func TestVerifyRerunFailed(t *testing.T) {
	stable := pyTest{name: "test_stable", first: true, rerun: true, assertionLine: 4}
	// test_racy fails, then passes when its whole step runs again
	// identically: a real race, the only kind of flaky test there is.
	flaky := pyTest{name: "test_racy", first: false, rerun: true, assertionLine: 9}
	broken := pyTest{name: "test_broken", first: false, rerun: false, assertionLine: 14}
	tests := []struct {
		name      string
		suite     []pyTest
		rerun     bool
		smokeExit int
		status    glv1.RunStatus
		// executes is how many Execute calls the run makes.
		executes int
		counts   *glv1.TestCounts
		// rerunCmd is the command of the re-run step ("" for none).
		rerunCmd string
		smoke    glv1.StepStatus
		summary  string
	}{
		{
			name: "flaky test passes on re-run", suite: []pyTest{stable, flaky}, rerun: true,
			status: glv1.RunStatus_RUN_STATUS_PASSED, executes: 2,
			counts:   &glv1.TestCounts{Passed: 2, Flaky: 1, Total: 2},
			rerunCmd: pytestCommand,
			smoke:    glv1.StepStatus_STEP_STATUS_OK,
			summary:  "pytest: 1 of 1 failing test(s) passed on re-run, marked flaky: tests/test_suite.py::test_racy",
		},
		{
			name: "real failure fails again", suite: []pyTest{stable, broken}, rerun: true,
			status: glv1.RunStatus_RUN_STATUS_FAILED, executes: 2,
			counts:   &glv1.TestCounts{Passed: 1, Failed: 1, Total: 2},
			rerunCmd: pytestCommand,
			smoke:    glv1.StepStatus_STEP_STATUS_SKIPPED,
			summary:  "pytest: the 1 failing test(s) failed again on re-run",
		},
		{
			name: "one flaky, one real failure", suite: []pyTest{stable, flaky, broken}, rerun: true,
			status: glv1.RunStatus_RUN_STATUS_FAILED, executes: 2,
			counts:   &glv1.TestCounts{Passed: 2, Failed: 1, Flaky: 1, Total: 3},
			rerunCmd: pytestCommand,
			smoke:    glv1.StepStatus_STEP_STATUS_SKIPPED,
			summary:  "pytest: 1 of 2 failing test(s) passed on re-run, marked flaky: tests/test_suite.py::test_racy",
		},
		{
			// The steps skipped after the flaky failure run after the
			// re-run: a flaky pass never leaves them unchecked.
			name: "step after a flaky pass still decides", suite: []pyTest{stable, flaky}, rerun: true, smokeExit: 3,
			status: glv1.RunStatus_RUN_STATUS_FAILED, executes: 2,
			counts:   &glv1.TestCounts{Passed: 2, Flaky: 1, Total: 2},
			rerunCmd: pytestCommand,
			smoke:    glv1.StepStatus_STEP_STATUS_FAILED,
			summary:  "FAIL: smoke (failed, exit 3)",
		},
		{
			name: "rerun_failed not set", suite: []pyTest{stable, flaky},
			status: glv1.RunStatus_RUN_STATUS_FAILED, executes: 1,
			counts: &glv1.TestCounts{Passed: 1, Failed: 1, Total: 2},
			smoke:  glv1.StepStatus_STEP_STATUS_SKIPPED,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			steps := flakySteps(tc.smokeExit)
			h := newHarness(t, engine.Config{}, steps...)
			h.exec.SetJudge(flakyJudge(tc.suite))
			run, evs := h.verify(&glv1.VerifyRequest{Snapshot: h.snapshot(fixed()), Options: &glv1.VerifyOptions{RerunFailed: tc.rerun}})
			res := run.GetResult()
			if run.GetStatus() != tc.status {
				t.Fatalf("status %s, want %s: %s\n%s", run.GetStatus(), tc.status, res.GetSummary(), res.GetTailLog())
			}
			c := res.GetCounts()
			if c.GetPassed() != tc.counts.GetPassed() || c.GetFailed() != tc.counts.GetFailed() || c.GetFlaky() != tc.counts.GetFlaky() ||
				c.GetTotal() != tc.counts.GetTotal() {
				t.Errorf("counts %v, want %v", c, tc.counts)
			}
			if !strings.Contains(res.GetSummary(), tc.summary) {
				t.Errorf("summary %q does not say %q", res.GetSummary(), tc.summary)
			}
			reqs := h.exec.Requests()
			if len(reqs) != tc.executes {
				t.Fatalf("%d Execute calls, want %d", len(reqs), tc.executes)
			}
			if got := stepStatus(res, "smoke"); got != tc.smoke {
				t.Errorf("smoke %s, want %s", got, tc.smoke)
			}
			if tc.rerunCmd == "" {
				if stepStatus(res, "pytest:rerun") != glv1.StepStatus_STEP_STATUS_UNSPECIFIED {
					t.Error("a re-run step is in the result though rerun_failed was not set")
				}
				return
			}
			checkRerunRequest(t, reqs, steps, tc.rerunCmd)
			checkRerunRecorded(t, res, evs, len(steps), tc.smoke != glv1.StepStatus_STEP_STATUS_SKIPPED)
		})
	}
}

// checkRerunRequest checks the second Execute call: same snapshot and run,
// the setup steps that ran before the test step (compileall: a build), the
// re-run step (same command, workdir, image and env: an identical
// invocation), then the steps skipped after the failure.
func checkRerunRequest(t *testing.T, reqs []*glv1.ExecuteRequest, steps []*glv1.Step, cmd string) {
	t.Helper()
	first, second := reqs[0], reqs[1]
	if second.GetSnapshot().GetHash() != first.GetSnapshot().GetHash() || second.GetRunId() != first.GetRunId() {
		t.Errorf("the re-run ran %v in run %s, want the snapshot %v of run %s", second.GetSnapshot(), second.GetRunId(), first.GetSnapshot(), first.GetRunId())
	}
	rs := second.GetPipeline().GetSteps()
	if len(rs) != 3 || rs[0].GetName() != "compileall" || rs[2].GetName() != "smoke" {
		t.Fatalf("re-run pipeline %v, want the build, the re-run, then the skipped smoke step", rs)
	}
	rs = rs[1:]
	orig := steps[1]
	if rs[0].GetName() != "pytest:rerun" || rs[0].GetCommand() != cmd || rs[0].GetWorkdir() != orig.GetWorkdir() ||
		rs[0].GetImage() != orig.GetImage() || rs[0].GetEnv()["APP_ENV"] != "test" || rs[0].GetPhase() != glv1.Phase_PHASE_TEST {
		t.Errorf("re-run step %v, want %q in the step's workdir, image and env", rs[0], cmd)
	}
	if left := second.GetLimits().GetRunTimeout().AsDuration(); left <= 0 || left > engine.DefaultTimeBudget {
		t.Errorf("re-run budget %s, want what is left of the verification's", left)
	}
}

// checkRerunRecorded checks that the re-run is in the result (an optional
// step with counts, the manifest, a log artifact, the tail log) and in the
// events (a step index past the pipeline's; the skipped smoke step, when it
// ran after the re-run, under its own index).
func checkRerunRecorded(t *testing.T, res *glv1.Result, evs []*glv1.RunEvent, pipelineLen int, smokeRan bool) {
	t.Helper()
	var rerun *glv1.StepResult
	for _, s := range res.GetSteps() {
		if s.GetName() == "pytest:rerun" {
			rerun = s
		}
	}
	if rerun == nil || !rerun.GetOptional() || rerun.GetCounts().GetTotal() == 0 || rerun.GetLogDigest().GetHash() == "" {
		t.Fatalf("re-run step in the result: %v", rerun)
	}
	var names []string
	for _, c := range res.GetManifest().GetCommandsExecuted() {
		names = append(names, c.GetName())
	}
	if i := slices.Index(names, "pytest"); i < 0 || i+1 >= len(names) || names[i+1] != "pytest:rerun" {
		t.Errorf("manifest commands %v, want the re-run right after pytest", names)
	}
	if !slices.Contains(res.GetArtifactPaths(), "logs/rerun-01-pytest.log") {
		t.Errorf("artifacts %v, want the re-run log", res.GetArtifactPaths())
	}
	if !strings.Contains(res.GetTailLog(), "==> pytest:rerun") {
		t.Errorf("tail log has no re-run section:\n%s", res.GetTailLog())
	}
	started := map[string]int32{}
	for _, ev := range evs {
		if s := ev.GetStepStarted(); s != nil {
			started[s.GetStep().GetName()] = s.GetIndex()
		}
	}
	smoke, ok := started["smoke"]
	if started["pytest:rerun"] != int32(pipelineLen) || ok != smokeRan || (smokeRan && smoke != 2) {
		t.Errorf("step_started indices %v, want the re-run at %d and smoke (started: %v) at 2", started, pipelineLen, smokeRan)
	}
	for _, f := range res.GetFailures() {
		if f.GetTest() == "tests/test_suite.py::test_racy" && !f.GetFlaky() {
			t.Errorf("the flaky test's failure is not marked flaky: %v", f)
		}
		if f.GetTest() == "tests/test_suite.py::test_broken" && f.GetFlaky() {
			t.Errorf("a real failure is marked flaky: %v", f)
		}
	}
}

// stepStatus is the status of the named step in res (UNSPECIFIED: absent).
func stepStatus(res *glv1.Result, name string) glv1.StepStatus {
	for _, s := range res.GetSteps() {
		if s.GetName() == name {
			return s.GetStatus()
		}
	}
	return glv1.StepStatus_STEP_STATUS_UNSPECIFIED
}

func TestVerifyRerunFailedLeavesOtherFailuresAlone(t *testing.T) {
	tests := []struct {
		name  string
		steps []*glv1.Step
	}{
		{"a failing build is not re-run", []*glv1.Step{enginetest.Step("build", glv1.Tier_TIER_0, glv1.Phase_PHASE_BUILD, 2, 0)}},
		{"a test step without parsed tests is not re-run", []*glv1.Step{
			{Name: "check", Phase: glv1.Phase_PHASE_TEST, Command: "./check.sh", Tier: glv1.Tier_TIER_0,
				Env: map[string]string{"FAKE_EXIT": "1", "FAKE_LOG": "something went wrong\n"}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, engine.Config{}, tc.steps...)
			run, _ := h.verify(&glv1.VerifyRequest{Snapshot: h.snapshot(fixed()), Options: &glv1.VerifyOptions{RerunFailed: true}})
			if run.GetStatus() != glv1.RunStatus_RUN_STATUS_FAILED {
				t.Fatalf("status %s: %s", run.GetStatus(), run.GetResult().GetSummary())
			}
			if n := len(h.exec.Requests()); n != 1 {
				t.Errorf("%d Execute calls, want 1 (nothing to re-run)", n)
			}
			if strings.Contains(run.GetResult().GetSummary(), "re-run") {
				t.Errorf("summary mentions a re-run: %s", run.GetResult().GetSummary())
			}
		})
	}
}

func TestFixGradingVerificationNeverExcusesAFlakyTest(t *testing.T) {
	// test_add fails until add() is fixed; test_racy passes in the
	// baseline and, once patched, fails in the full run (it would pass on
	// an identical re-run). The patched verification decides acceptance:
	// nothing in it is re-run or excused as flaky, so the failure is the
	// patch's regression. Only the baseline re-runs its failing test.
	judge := func(step *glv1.Step, files map[string]string) enginetest.Outcome {
		fixedAdd := strings.Contains(files["calc.py"], "return a + b")
		suite := []pyTest{
			{name: "test_add", first: fixedAdd, rerun: fixedAdd, assertionLine: 5},
			{name: "test_racy", first: !fixedAdd, rerun: true, assertionLine: 9},
		}
		return flakyJudge(suite)(step, files)
	}
	// A repair run re-runs failing tests whether or not the caller asked.
	for _, rerun := range []bool{false, true} {
		t.Run(fmt.Sprintf("rerun_failed=%t", rerun), func(t *testing.T) {
			h := newHarness(t, engine.Config{}, flakySteps(0)...)
			h.exec.SetJudge(judge)
			run, _, _ := h.fix(&glv1.FixOptions{Baseline: true, MaxRounds: 1, Verify: &glv1.VerifyOptions{RerunFailed: rerun}},
				h.snapshot(enginetest.CalcFiles), scriptedReply{patch: enginetest.FixPatch})
			p := run.GetPatches()[0]
			if run.GetMetrics().GetGreen() || !p.GetRolledBack() || !strings.Contains(p.GetReason(), "tests/test_suite.py::test_racy") {
				t.Fatalf("metrics %v patch rolled back %t (%s): want rolled back for test_racy", run.GetMetrics(), p.GetRolledBack(), p.GetReason())
			}
			if run.GetMetrics().GetReruns() != 1 {
				t.Errorf("%d re-runs counted, want 1 (the baseline's failing test_add; the grading verification never re-runs)", run.GetMetrics().GetReruns())
			}
			if tr := p.GetTransitions(); tr.GetPassToFail() != 1 {
				t.Errorf("transitions %v: want test_racy PASS_TO_FAIL", tr)
			}
		})
	}
}
