package loopfake

import (
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Canned data: a small Go service verified with the usual four steps.

// Image is the sandbox image the canned runs name.
const Image = "greenlight/go:1.26"

// HostileMessage is a failure message full of markup that the report page
// must show as text, never interpret.
const HostileMessage = `Div(1, 0) = 0, <nil>; want an error <script>window.pwned=1</script><img src=x onerror="window.pwned=2">`

// PatchDiff is the diff of the applied patch of PassingFixRun.
const PatchDiff = `--- a/calc/calc.go
+++ b/calc/calc.go
@@ -1,5 +1,7 @@
 package calc
 
+import "errors"
+
 // Add adds a and b.
 func Add(a, b int) int { return a + b }
 
@@ -8,5 +10,8 @@ func Add(a, b int) int { return a + b }
 // Div divides a by b.
 func Div(a, b int) (int, error) {
-	return a / b, nil
+	if b == 0 {
+		return 0, errors.New("division by zero")
+	}
+	return a / b, nil
 }
`

// rejectedDiff is the first, rolled-back attempt of PassingFixRun.
const rejectedDiff = `--- a/calc/calc_test.go
+++ b/calc/calc_test.go
@@ -25,3 +25,1 @@
-	if _, err := Div(1, 0); err == nil {
-		t.Fatal("want an error")
-	}
+	// skipped
`

// GoSteps is the pipeline of the canned runs.
func GoSteps() []*glv1.Step {
	return []*glv1.Step{
		{Name: "go-mod-download", Phase: glv1.Phase_PHASE_INSTALL, Command: "go mod download", Tier: glv1.Tier_TIER_0, Level: glv1.Level_LEVEL_L3, Network: true},
		{Name: "go-build", Phase: glv1.Phase_PHASE_BUILD, Command: "go build ./...", Tier: glv1.Tier_TIER_0, Level: glv1.Level_LEVEL_L3},
		{Name: "go-vet", Phase: glv1.Phase_PHASE_LINT, Command: "go vet ./...", Tier: glv1.Tier_TIER_0, Level: glv1.Level_LEVEL_L2},
		{Name: "go-test", Phase: glv1.Phase_PHASE_TEST, Command: "go test -json ./...", Tier: glv1.Tier_TIER_0, Level: glv1.Level_LEVEL_L4},
	}
}

// base is the fixed start time of the canned runs.
var base = time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)

// stepResult is the result of step i with the given exit code and log.
func stepResult(i int, exit int32, seconds float64, log string, logDigest *glv1.Digest) *glv1.StepResult {
	s := GoSteps()[i]
	st := glv1.StepStatus_STEP_STATUS_OK
	if exit != 0 {
		st = glv1.StepStatus_STEP_STATUS_FAILED
	}
	start := base.Add(time.Duration(i) * 5 * time.Second)
	d := time.Duration(seconds * float64(time.Second))
	return &glv1.StepResult{
		Name: s.GetName(), Phase: s.GetPhase(), Command: s.GetCommand(), Workdir: ".", ExitCode: exit, Status: st,
		StartedAt: timestamppb.New(start), FinishedAt: timestamppb.New(start.Add(d)), Duration: durationpb.New(d),
		Tail: log, LogDigest: logDigest, OutputBytes: int64(len(log)), Tier: s.GetTier(), Level: s.GetLevel(), Image: Image,
		CacheHit: s.GetPhase() == glv1.Phase_PHASE_INSTALL,
	}
}

// Logs are the canned step logs, by step name, for a passing run.
func Logs() map[string]string {
	return map[string]string{
		"go-mod-download": "dependency cache hit: go.sum sha256:4be1…\n",
		"go-build":        "",
		"go-vet":          "",
		"go-test":         "ok  \texample.com/svc/calc\t0.012s\nok  \texample.com/svc/util\t0.008s\n",
	}
}

// manifest is the canned manifest of run id.
func manifest(id string, steps []*glv1.StepResult) *glv1.Manifest {
	m := &glv1.Manifest{RunId: id, TimestampStart: timestamppb.New(base), TimestampEnd: timestamppb.New(base.Add(21 * time.Second)),
		CommitSha: "9f1c2ab", Platform: &glv1.Platform{Os: "linux", Arch: "amd64", ContainerImage: Image, EngineVersion: "28.2.2"}}
	for _, s := range steps {
		m.CommandsExecuted = append(m.CommandsExecuted, &glv1.CommandRecord{Name: s.GetName(), Command: s.GetCommand(),
			ExitCode: s.GetExitCode(), DurationMs: s.GetDuration().AsDuration().Milliseconds(), Status: s.GetStatus(), Workdir: s.GetWorkdir()})
	}
	return m
}

// PassingFixRun is a finished repair run: one patch rolled back, one
// applied, then every step passed. logDigests maps step names to stored
// logs (may be nil).
func PassingFixRun(id string, logDigests map[string]*glv1.Digest) *glv1.Run {
	logs := Logs()
	var steps []*glv1.StepResult
	for i, s := range GoSteps() {
		steps = append(steps, stepResult(i, 0, []float64{0.41, 2.13, 1.32, 4.2}[i], logs[s.GetName()], logDigests[s.GetName()]))
	}
	steps[3].Counts = &glv1.TestCounts{Passed: 12, Total: 12, Format: "go-json"}
	score := &glv1.Score{Total: 10, Build: 3, Tests: 4, Lint: 2, NoCritical: 1, Level: glv1.Level_LEVEL_L4,
		DecidedBy: glv1.ScoreSource_SCORE_SOURCE_DETERMINISTIC, Rule: "every required step passed; 12 test assertions ran"}
	return &glv1.Run{
		Id: id, Kind: glv1.RunKind_RUN_KIND_FIX, Status: glv1.RunStatus_RUN_STATUS_PASSED,
		Snapshot:  &glv1.Digest{Hash: "4f0c9d1e8b7a6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d", SizeBytes: 20480},
		CreatedAt: timestamppb.New(base), StartedAt: timestamppb.New(base), FinishedAt: timestamppb.New(base.Add(63 * time.Second)),
		SourceDir: "/home/dev/svc",
		Result: &glv1.Result{
			Status: glv1.Verdict_VERDICT_PASS, RunId: id, Steps: steps, Manifest: manifest(id, steps),
			Counts: &glv1.TestCounts{Passed: 12, Total: 12, Format: "go-json"}, Score: score, Level: glv1.Level_LEVEL_L4,
			Summary: "all 4 required steps passed after 2 patch attempts",
		},
		Patches: []*glv1.PatchOutcome{
			{Attempt: 1, Diff: rejectedDiff, Format: glv1.PatchFormat_PATCH_FORMAT_UNIFIED, RolledBack: true,
				Reason: "patch deletes test assertions (allow_test_changes is off)", LinesRemoved: 3, LinesAdded: 1,
				Files: []string{"calc/calc_test.go"}, FailingBefore: 1},
			{Attempt: 2, Diff: PatchDiff, Format: glv1.PatchFormat_PATCH_FORMAT_UNIFIED, Applied: true,
				LinesAdded: 6, LinesRemoved: 1, Files: []string{"calc/calc.go"}, FailingBefore: 1, FailingAfter: 0,
				Transitions: divTransitions()},
		},
		Metrics: &glv1.FixMetrics{Green: true, Rounds: 2, AttemptsToGreen: 2, TimeToGreen: durationpb.New(61 * time.Second),
			Rollbacks: 1, PatchLines: 7, StopReason: "green", Transitions: divTransitions()},
	}
}

// FailingTestLog is the go-test log of FailingVerifyRun.
const FailingTestLog = "--- FAIL: TestDiv (0.00s)\n    calc_test.go:27: " + HostileMessage + "\n--- FAIL: TestTrim (0.00s)\n    util_test.go:14: Trim(\"  a \") = \" a\", want \"a\"\nFAIL\texample.com/svc/calc\t0.011s\n"

// FailingVerifyRun is a finished verification whose tests failed.
func FailingVerifyRun(id string, logDigests map[string]*glv1.Digest) *glv1.Run {
	logs := Logs()
	logs["go-test"] = FailingTestLog
	var steps []*glv1.StepResult
	for i, s := range GoSteps() {
		exit := int32(0)
		if s.GetName() == "go-test" {
			exit = 1
		}
		steps = append(steps, stepResult(i, exit, []float64{0.38, 2.05, 1.27, 3.91}[i], logs[s.GetName()], logDigests[s.GetName()]))
	}
	counts := &glv1.TestCounts{Passed: 10, Failed: 2, Skipped: 1, Total: 13, Format: "go-json"}
	steps[3].Counts = counts
	evidence := func() *glv1.Evidence {
		return &glv1.Evidence{Step: "go-test", Command: "go test -json ./...", Workdir: ".", ExitCode: 1, LogDigest: logDigests["go-test"]}
	}
	return &glv1.Run{
		Id: id, Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: glv1.RunStatus_RUN_STATUS_FAILED,
		Snapshot:  &glv1.Digest{Hash: "9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b", SizeBytes: 20992},
		CreatedAt: timestamppb.New(base.Add(time.Hour)), StartedAt: timestamppb.New(base.Add(time.Hour)),
		FinishedAt: timestamppb.New(base.Add(time.Hour + 9*time.Second)), SourceDir: "/home/dev/svc",
		Result: &glv1.Result{
			Status: glv1.Verdict_VERDICT_FAIL, RunId: id, Steps: steps, Manifest: manifest(id, steps), Counts: counts,
			Failures: []*glv1.Failure{
				{File: "calc/calc_test.go", Line: 27, Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION, Test: "TestDiv",
					Message: HostileMessage, Evidence: evidence()},
				{File: "util/util_test.go", Line: 14, Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION, Test: "TestTrim",
					Message: `Trim("  a ") = " a", want "a"`, Evidence: evidence()},
			},
			Score: &glv1.Score{Total: 5, Build: 3, Tests: 0, Lint: 2, NoCritical: 0, Level: glv1.Level_LEVEL_L3,
				DecidedBy: glv1.ScoreSource_SCORE_SOURCE_DETERMINISTIC, Rule: "tests failed: 2 of 13"},
			Level:   glv1.Level_LEVEL_L3,
			Summary: "go-test failed: 2 of 13 tests failed",
			TailLog: FailingTestLog,
		},
	}
}

// Created is a RunCreated event.
func Created(id string) *glv1.RunEvent {
	return &glv1.RunEvent{Kind: &glv1.RunEvent_RunCreated{RunCreated: &glv1.RunCreated{Run: &glv1.Run{Id: id}}}}
}

// StepStartedEvent says step i started.
func StepStartedEvent(i int, s *glv1.Step) *glv1.RunEvent {
	return &glv1.RunEvent{Kind: &glv1.RunEvent_StepStarted{StepStarted: &glv1.StepStarted{Index: int32(i), Step: s, Time: timestamppb.Now()}}}
}

// LogEvent is a chunk of step i's output.
func LogEvent(i int, step, data string) *glv1.RunEvent {
	return &glv1.RunEvent{Kind: &glv1.RunEvent_LogChunk{LogChunk: &glv1.LogChunk{Index: int32(i), Step: step,
		Stream: glv1.Stream_STREAM_STDOUT, Data: data}}}
}

// StepFinishedEvent carries step i's result.
func StepFinishedEvent(i int, r *glv1.StepResult) *glv1.RunEvent {
	return &glv1.RunEvent{Kind: &glv1.RunEvent_StepFinished{StepFinished: &glv1.StepFinished{Index: int32(i), Result: r}}}
}

// Finished is a RunFinished event.
func Finished(st glv1.RunStatus, r *glv1.Result) *glv1.RunEvent {
	return &glv1.RunEvent{Kind: &glv1.RunEvent_RunFinished{RunFinished: &glv1.RunFinished{Status: st, Result: r}}}
}

// PassingEvents are the events of a passing verification of the canned
// steps, RunFinished last.
func PassingEvents(id string) []*glv1.RunEvent {
	run := PassingFixRun(id, nil)
	run.Kind, run.Patches, run.Metrics = glv1.RunKind_RUN_KIND_VERIFY, nil, nil
	evs := []*glv1.RunEvent{Created(id)}
	for i, s := range GoSteps() {
		evs = append(evs, StepStartedEvent(i, s))
		if log := Logs()[s.GetName()]; log != "" {
			evs = append(evs, LogEvent(i, s.GetName(), log))
		}
		evs = append(evs, StepFinishedEvent(i, run.GetResult().GetSteps()[i]))
	}
	return append(evs, Finished(glv1.RunStatus_RUN_STATUS_PASSED, run.GetResult()))
}

// divTransitions is PassingFixRun's final state against its baseline:
// TestDiv fixed, 11 tests still passing.
func divTransitions() *glv1.Transitions {
	return &glv1.Transitions{FailToPass: 1, PassToPass: 11, Resolution: glv1.Resolution_RESOLUTION_FULL, Complete: true,
		TargetFailToPass: 1, TargetFailToPassPassed: 1, TargetPassToPass: 11, TargetPassToPassPassed: 11,
		Changes: []*glv1.TestTransition{{Step: "go-test", Id: "example.com/svc/calc.TestDiv", Kind: glv1.TransitionKind_TRANSITION_KIND_FAIL_TO_PASS,
			Before: glv1.TestStatus_TEST_STATUS_FAILED, After: glv1.TestStatus_TEST_STATUS_PASSED, Target: true}}}
}
