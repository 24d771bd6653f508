package contract

import (
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

var t0 = time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)

func ts(sec int) *timestamppb.Timestamp {
	return timestamppb.New(t0.Add(time.Duration(sec) * time.Second))
}

func digest(c byte, n int64) *glv1.Digest {
	h := make([]byte, 64)
	for i := range h {
		h[i] = c
	}
	return &glv1.Digest{Hash: string(h), SizeBytes: n}
}

// failingResult is a Go project's FAIL: a passing build, a failing test
// with file:line, an advisory lint step skipped for a missing tool.
func failingResult() *glv1.Result {
	return &glv1.Result{
		Status: glv1.Verdict_VERDICT_FAIL, RunId: "r_fail", TailLog: "--- FAIL: TestAdd (0.00s)\n    calc_test.go:9: Add(2,2) = 5, want 4\nFAIL\n",
		ArtifactPaths: []string{"runs/r_fail/manifest.json", "runs/r_fail/logs/step-02-go-test.log"},
		Manifest: &glv1.Manifest{RunId: "r_fail", TimestampStart: ts(0), TimestampEnd: ts(12), CommitSha: "abc123", Snapshot: digest('a', 2048),
			CommandsExecuted: []*glv1.CommandRecord{
				{Name: "go-build", Command: "go build ./...", ExitCode: 0, DurationMs: 2300, Status: glv1.StepStatus_STEP_STATUS_OK},
				{Name: "go-test", Command: "go test -json ./...", ExitCode: 1, DurationMs: 4100, Status: glv1.StepStatus_STEP_STATUS_FAILED},
			},
			Platform: &glv1.Platform{Os: "linux", Arch: "amd64", ContainerImage: "greenlight/sandbox-go:2dad7cf3df2c", EngineVersion: "20.10.24"},
			Limits:   &glv1.Limits{Cpus: 1, MemoryBytes: 2 << 30, Pids: 512, RunTimeout: durationpb.New(10 * time.Minute)}},
		Steps: []*glv1.StepResult{
			{Name: "go-build", Phase: glv1.Phase_PHASE_BUILD, Command: "go build ./...", Status: glv1.StepStatus_STEP_STATUS_OK,
				StartedAt: ts(1), FinishedAt: ts(3), Duration: durationpb.New(2300 * time.Millisecond), Tier: glv1.Tier_TIER_0, Level: glv1.Level_LEVEL_L3,
				LogDigest: digest('b', 10)},
			{Name: "go-test", Phase: glv1.Phase_PHASE_TEST, Command: "go test -json ./... | tee /tmp/r.json", DisplayCommand: "go test -json ./...",
				Status: glv1.StepStatus_STEP_STATUS_FAILED, ExitCode: 1, StartedAt: ts(3), FinishedAt: ts(8), Duration: durationpb.New(4100 * time.Millisecond),
				Tier: glv1.Tier_TIER_0, Level: glv1.Level_LEVEL_L4, Counts: &glv1.TestCounts{Passed: 3, Failed: 1, Total: 4, Format: "go-json"},
				Tail: "FAIL\texample.com/calc\t0.01s\n", LogDigest: digest('c', 900),
				Source: &glv1.CommandSource{Origin: "ci", File: ".github/workflows/ci.yml", Key: "jobs.test.steps[2].run", Line: 31}},
			{Name: "golangci-lint", Phase: glv1.Phase_PHASE_LINT, Command: "golangci-lint run", Status: glv1.StepStatus_STEP_STATUS_SKIPPED,
				Reason: "tool not available in greenlight/sandbox-go", Optional: true, Tier: glv1.Tier_TIER_0, Level: glv1.Level_LEVEL_L2},
		},
		Counts: &glv1.TestCounts{Passed: 3, Failed: 1, Total: 4, Format: "go-json"},
		Failures: []*glv1.Failure{{File: "calc_test.go", Line: 9, Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION,
			Message: "Add(2,2) = 5, want 4", Test: "example.com/calc.TestAdd",
			Evidence: &glv1.Evidence{Step: "go-test", Command: "go test -json ./...", ExitCode: 1, LogOffset: 120, LogDigest: digest('c', 900)},
			Frames:   []*glv1.Frame{{File: "calc_test.go", Line: 9, Function: "TestAdd", Project: true}}}},
		Score: &glv1.Score{Total: 6, Build: 3, Tests: 1, Lint: 1, NoCritical: 1, Level: glv1.Level_LEVEL_L4,
			DecidedBy: glv1.ScoreSource_SCORE_SOURCE_DETERMINISTIC, Rule: "1 of 4 tests failed"},
		Level: glv1.Level_LEVEL_L4,
		Tests: []*glv1.TestCase{
			{Id: "example.com/calc.TestAdd", Name: "TestAdd", Status: glv1.TestStatus_TEST_STATUS_FAILED, File: "calc_test.go", Line: 9,
				Message: "Add(2,2) = 5, want 4", Step: "go-test", Duration: durationpb.New(time.Millisecond)},
			{Id: "example.com/calc.TestSub", Name: "TestSub", Status: glv1.TestStatus_TEST_STATUS_PASSED, Step: "go-test"},
		},
		Inventory: &glv1.TestInventory{Blob: digest('d', 400), Tests: 4, Complete: true},
		Summary:   "FAIL: go-test (failed, exit 1)",
		Tiers:     []*glv1.TierSelection{{Tier: glv1.Tier_TIER_0, Selected: true, Reasons: []string{"always"}}},
	}
}

// verifyRun wraps a result in a finished verify run.
func verifyRun(r *glv1.Result, st glv1.RunStatus) *glv1.Run {
	return &glv1.Run{Id: r.GetRunId(), Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: st, Result: r,
		Snapshot: digest('a', 2048), CreatedAt: ts(0), FinishedAt: ts(12)}
}

// errorRun is an infrastructure ERROR before anything ran.
func errorRun() *glv1.Run {
	return &glv1.Run{Id: "r_err", Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: glv1.RunStatus_RUN_STATUS_ERROR,
		Error: "executor: cannot reach the Docker engine", Result: &glv1.Result{Status: glv1.Verdict_VERDICT_ERROR, RunId: "r_err",
			Score: &glv1.Score{Total: 5}}}
}

// fixRun is a fix run: a rolled-back regression, then the fix.
func fixRun() *glv1.Run {
	green := failingResult()
	green.Status, green.RunId, green.Summary = glv1.Verdict_VERDICT_PASS, "r_fix", "PASS: every required step that ran finished OK"
	green.Failures, green.Counts = nil, &glv1.TestCounts{Passed: 4, Total: 4, Format: "go-json"}
	final := &glv1.Transitions{FailToPass: 1, PassToPass: 3, Resolution: glv1.Resolution_RESOLUTION_FULL, Complete: true,
		TargetFailToPass: 1, TargetFailToPassPassed: 1,
		Changes: []*glv1.TestTransition{{Step: "go-test", Id: "example.com/calc.TestAdd", Kind: glv1.TransitionKind_TRANSITION_KIND_FAIL_TO_PASS,
			Before: glv1.TestStatus_TEST_STATUS_FAILED, After: glv1.TestStatus_TEST_STATUS_PASSED, Target: true}}}
	regress := &glv1.Transitions{PassToFail: 1, FailToFail: 1, PassToPass: 2, Resolution: glv1.Resolution_RESOLUTION_NO, Complete: true,
		TargetFailToPass: 1, FailingFailToPass: []string{"example.com/calc.TestAdd"},
		Changes: []*glv1.TestTransition{{Step: "go-test", Id: "example.com/calc.TestSub", Kind: glv1.TransitionKind_TRANSITION_KIND_PASS_TO_FAIL,
			Before: glv1.TestStatus_TEST_STATUS_PASSED, After: glv1.TestStatus_TEST_STATUS_FAILED}}}
	return &glv1.Run{Id: "r_fix", Kind: glv1.RunKind_RUN_KIND_FIX, Status: glv1.RunStatus_RUN_STATUS_PASSED, Result: green,
		Snapshot: digest('a', 2048), CurrentSnapshot: digest('e', 2050), CreatedAt: ts(0), FinishedAt: ts(40),
		FixOptions: &glv1.FixOptions{Targets: &glv1.FixTargets{FailToPass: []string{"TestAdd"}}},
		Patches: []*glv1.PatchOutcome{
			{Attempt: 1, Diff: "--- a/calc.go\n+++ b/calc.go\n@@ -3 +3 @@\n-\treturn a + b + 1\n+\treturn a - b\n", Format: glv1.PatchFormat_PATCH_FORMAT_UNIFIED,
				Applied: true, RolledBack: true, Rule: "regression", Reason: "1 test passing at baseline fails now", LinesAdded: 1, LinesRemoved: 1,
				Files: []string{"calc.go"}, FailingBefore: 1, FailingAfter: 2, Transitions: regress, SnapshotBefore: digest('a', 2048), SnapshotAfter: digest('f', 2049),
				Usage: &glv1.Usage{PromptTokens: 900, CompletionTokens: 40}},
			{Attempt: 2, Diff: "--- a/calc.go\n+++ b/calc.go\n@@ -3 +3 @@\n-\treturn a + b + 1\n+\treturn a + b\n", Format: glv1.PatchFormat_PATCH_FORMAT_UNIFIED,
				Applied: true, LinesAdded: 1, LinesRemoved: 1, Files: []string{"calc.go"}, FailingBefore: 1, Transitions: final,
				SnapshotBefore: digest('a', 2048), SnapshotAfter: digest('e', 2050), Usage: &glv1.Usage{PromptTokens: 950, CompletionTokens: 38}},
		},
		Metrics: &glv1.FixMetrics{Green: true, Rounds: 2, AttemptsToGreen: 2, TimeToGreen: durationpb.New(31500 * time.Millisecond), Rollbacks: 1,
			PatchLines: 2, StopReason: "green", Reruns: 1, Transitions: final, BaselineInventory: &glv1.TestInventory{Blob: digest('d', 400), Tests: 4, Complete: true},
			Usage: &glv1.Usage{PromptTokens: 1850, CompletionTokens: 78}},
	}
}
