package loopfake

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// FixRounds is a canned repair run in two rounds, with the events the
// loop records for one: the baseline verification fails two tests
// (TestDiv, TestTrim); round 1's patch fixes Div (TestDiv fail→pass,
// TestTrim still failing); round 2's fixes Trim and everything passes.
// Its step logs and its three snapshots (tars) are in the blob store.
type FixRounds struct {
	ID string
	// Run is the finished run record; Events its event log, RunFinished
	// last (Emit numbers them).
	Run    *glv1.Run
	Events []*glv1.RunEvent
	// Snapshots are the baseline's, round 1's and round 2's.
	Snapshots [3]*glv1.Digest
	// DivFile:DivLine is TestDiv's failing assertion at baseline;
	// TrimFile:TrimLine TestTrim's.
	DivFile, TrimFile string
	DivLine, TrimLine int32
}

// Test ids of FixRounds.
const (
	DivTestID  = "example.com/svc/calc.TestDiv"
	TrimTestID = "example.com/svc/util.TestTrim"
)

// PutFixRounds stores a finished FixRounds run id in the fake: blobs,
// record and every event.
func (l *Loop) PutFixRounds(t testing.TB, id string) *FixRounds {
	t.Helper()
	f := NewFixRounds(t, id, l.PutBlob)
	l.Server.Put(f.Run)
	l.Emit(id, f.Events...)
	return f
}

// PutBlob stores data in the fake's blob store and returns its digest.
func (l *Loop) PutBlob(t testing.TB, data []byte) *glv1.Digest {
	t.Helper()
	d, err := l.Blobs.Put(context.Background(), bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return d.Proto()
}

// NewFixRounds builds FixRounds id, storing its blobs with put.
func NewFixRounds(t testing.TB, id string, put func(testing.TB, []byte) *glv1.Digest) *FixRounds {
	t.Helper()
	f := &FixRounds{ID: id, DivFile: "calc/calc_test.go", TrimFile: "util/util_test.go",
		DivLine: lineOf(calcTest(), divAssertion), TrimLine: lineOf(utilTest, trimAssertion)}
	for i := range f.Snapshots {
		f.Snapshots[i] = put(t, tarOf(treeAt(i)))
	}
	var results [3]*verification
	for round := range results {
		results[round] = f.verification(t, round, put)
	}
	patches := []*glv1.PatchOutcome{
		f.patch(1, calcDiff, "calc/calc.go", 2, 1, transitionsAfter(1)),
		f.patch(2, utilDiff, "util/util.go", 1, 1, transitionsAfter(2)),
	}
	patches[0].FailingBefore, patches[0].FailingAfter = 2, 1
	patches[1].FailingBefore, patches[1].FailingAfter = 1, 0
	final := results[2].result
	f.Run = &glv1.Run{
		Id: id, Kind: glv1.RunKind_RUN_KIND_FIX, Status: glv1.RunStatus_RUN_STATUS_PASSED,
		Snapshot: f.Snapshots[0], CurrentSnapshot: f.Snapshots[2], SourceDir: "/home/dev/svc",
		CreatedAt: timestamppb.New(base), StartedAt: timestamppb.New(base), FinishedAt: timestamppb.New(base.Add(95 * time.Second)),
		Result: final, Patches: patches,
		FixOptions: &glv1.FixOptions{MaxRounds: 3, Baseline: true},
		Metrics: &glv1.FixMetrics{Green: true, Rounds: 2, AttemptsToGreen: 2, TimeToGreen: durationpb.New(93 * time.Second),
			PatchLines: 5, StopReason: "green", Transitions: transitionsAfter(2)},
	}
	f.Events = append([]*glv1.RunEvent{Created(id)}, results[0].events...)
	for i, p := range patches {
		round := int32(i + 1)
		f.Events = append(f.Events, roundEvents(round, results[i].result, f.Snapshots[i])...)
		f.Events = append(f.Events, results[round].events...)
		f.Events = append(f.Events, &glv1.RunEvent{Kind: &glv1.RunEvent_PatchEvaluated{PatchEvaluated: &glv1.PatchEvaluated{Outcome: p}}})
	}
	fin := Finished(glv1.RunStatus_RUN_STATUS_PASSED, final)
	fin.Time = f.Run.GetFinishedAt()
	f.Events = append(f.Events, fin)
	return f
}

// verification is one verification's result and events.
type verification struct {
	result *glv1.Result
	events []*glv1.RunEvent
}

// failing is which tests fail after round.
func failing(round int) (div, trim bool) { return round < 1, round < 2 }

// verification builds the verification after round (0: the baseline).
func (f *FixRounds) verification(t testing.TB, round int, put func(testing.TB, []byte) *glv1.Digest) *verification {
	t.Helper()
	div, trim := failing(round)
	logs := Logs()
	logs["go-test"] = goTestLog(div, trim, f)
	start := base.Add(time.Duration(round) * 30 * time.Second)
	var steps []*glv1.StepResult
	v := &verification{}
	v.events = append(v.events, &glv1.RunEvent{Kind: &glv1.RunEvent_DiscoveryDone{DiscoveryDone: &glv1.DiscoveryDone{
		Attempt: int32(round), Pipeline: &glv1.Pipeline{Runtime: "go", Image: Image, Steps: GoSteps()}}}})
	for i, s := range GoSteps() {
		exit := int32(0)
		if s.GetName() == "go-test" && (div || trim) {
			exit = 1
		}
		r := stepResult(i, exit, []float64{0.4, 2.1, 1.3, 4.4}[i], lastLines(logs[s.GetName()], 20), put(t, []byte(logs[s.GetName()])))
		r.StartedAt = timestamppb.New(start.Add(time.Duration(i) * 5 * time.Second))
		steps = append(steps, r)
		v.events = append(v.events, StepStartedEvent(i, s))
		if logs[s.GetName()] != "" {
			v.events = append(v.events, LogEvent(i, s.GetName(), logs[s.GetName()]))
		}
		v.events = append(v.events, StepFinishedEvent(i, r))
	}
	counts := &glv1.TestCounts{Total: 12, Format: "go-json"}
	var failures []*glv1.Failure
	if div {
		failures = append(failures, &glv1.Failure{File: f.DivFile, Line: f.DivLine, Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION,
			Test: DivTestID, Message: "Div(1, 0) = 0, <nil>; want an error"})
	}
	if trim {
		failures = append(failures, &glv1.Failure{File: f.TrimFile, Line: f.TrimLine, Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION,
			Test: TrimTestID, Message: `Trim("  a ") = "a ", want "a"`})
	}
	counts.Failed = int32(len(failures))
	counts.Passed = counts.Total - counts.Failed
	steps[3].Counts = counts
	v.events = append(v.events, &glv1.RunEvent{Kind: &glv1.RunEvent_TestsParsed{TestsParsed: &glv1.TestsParsed{
		Step: "go-test", Counts: counts, Failures: failures}}})
	sc := &glv1.Score{Total: 10, Build: 3, Tests: 4, Lint: 2, NoCritical: 1, Level: glv1.Level_LEVEL_L4,
		DecidedBy: glv1.ScoreSource_SCORE_SOURCE_DETERMINISTIC, Rule: "every required step passed; 12 test assertions ran"}
	verdict, summary := glv1.Verdict_VERDICT_PASS, "all 4 required steps passed"
	if len(failures) > 0 {
		sc = &glv1.Score{Total: 5, Build: 3, Tests: 0, Lint: 2, Level: glv1.Level_LEVEL_L3,
			DecidedBy: glv1.ScoreSource_SCORE_SOURCE_DETERMINISTIC, Rule: fmt.Sprintf("tests failed: %d of 12", len(failures))}
		verdict, summary = glv1.Verdict_VERDICT_FAIL, fmt.Sprintf("go-test failed: %d of 12 tests failed", len(failures))
	}
	v.events = append(v.events,
		&glv1.RunEvent{Kind: &glv1.RunEvent_Score{Score: sc}},
		&glv1.RunEvent{Kind: &glv1.RunEvent_VerificationDone{VerificationDone: &glv1.VerificationDone{
			Ok: verdict == glv1.Verdict_VERDICT_PASS, Attempt: int32(round), Score: sc, FailedCommand: failedCommand(verdict),
			Duration: durationpb.New(20 * time.Second)}}})
	level := glv1.Level_LEVEL_L4
	if verdict != glv1.Verdict_VERDICT_PASS {
		level = glv1.Level_LEVEL_L3
	}
	v.result = &glv1.Result{Status: verdict, RunId: f.ID, Steps: steps, Manifest: manifest(f.ID, steps), Counts: counts,
		Failures: failures, Score: sc, Level: level, Summary: summary}
	return v
}

func failedCommand(v glv1.Verdict) string {
	if v == glv1.Verdict_VERDICT_PASS {
		return ""
	}
	return "go test -json ./..."
}

// roundEvents announce round: the retry, the round and the patch request.
func roundEvents(round int32, prev *glv1.Result, snap *glv1.Digest) []*glv1.RunEvent {
	return []*glv1.RunEvent{
		{Kind: &glv1.RunEvent_VerifyFailedRetry{VerifyFailedRetry: &glv1.VerifyFailedRetry{Attempt: round, MaxAttempts: 3,
			FailedCommand: "go test -json ./...", FixInstructions: prev.GetSummary()}}},
		{Kind: &glv1.RunEvent_RoundStarted{RoundStarted: &glv1.RoundStarted{Round: round, Snapshot: snap}}},
		{Kind: &glv1.RunEvent_PatchRequested{PatchRequested: &glv1.PatchRequested{Request: &glv1.PatchRequest{Attempt: round}}}},
	}
}

// patch is round's applied patch outcome.
func (f *FixRounds) patch(round int32, diff, file string, added, removed int32, tr *glv1.Transitions) *glv1.PatchOutcome {
	return &glv1.PatchOutcome{Attempt: round, Diff: diff, Format: glv1.PatchFormat_PATCH_FORMAT_UNIFIED, Applied: true,
		LinesAdded: added, LinesRemoved: removed, Files: []string{file},
		SnapshotBefore: f.Snapshots[round-1], SnapshotAfter: f.Snapshots[round], Transitions: tr}
}

// transitionsAfter compares round's verification with the baseline.
func transitionsAfter(round int) *glv1.Transitions {
	div, trim := failing(round)
	tr := &glv1.Transitions{PassToPass: 10, Complete: true, TargetFailToPass: 2, TargetPassToPass: 10, TargetPassToPassPassed: 10}
	for _, c := range []struct {
		id, step   string
		stillFails bool
	}{{DivTestID, "go-test", div}, {TrimTestID, "go-test", trim}} {
		ch := &glv1.TestTransition{Step: c.step, Id: c.id, Before: glv1.TestStatus_TEST_STATUS_FAILED, Target: true,
			Kind: glv1.TransitionKind_TRANSITION_KIND_FAIL_TO_PASS, After: glv1.TestStatus_TEST_STATUS_PASSED}
		if c.stillFails {
			ch.Kind, ch.After = glv1.TransitionKind_TRANSITION_KIND_FAIL_TO_FAIL, glv1.TestStatus_TEST_STATUS_FAILED
			tr.FailToFail++
		} else {
			tr.FailToPass++
			tr.TargetFailToPassPassed++
		}
		tr.Changes = append(tr.Changes, ch)
	}
	switch tr.TargetFailToPassPassed {
	case tr.TargetFailToPass:
		tr.Resolution = glv1.Resolution_RESOLUTION_FULL
	case 0:
		tr.Resolution = glv1.Resolution_RESOLUTION_NO
	default:
		tr.Resolution = glv1.Resolution_RESOLUTION_PARTIAL
	}
	return tr
}

// goTestLog is the `go test -json` output of the 12 tests.
func goTestLog(divFails, trimFails bool, f *FixRounds) string {
	var b strings.Builder
	pkg := func(name string, tests []string, failing map[string]string) {
		ev := func(action, test, output string) {
			e := map[string]any{"Time": base.Format(time.RFC3339Nano), "Action": action, "Package": name}
			if test != "" {
				e["Test"] = test
			}
			if output != "" {
				e["Output"] = output
			}
			line, _ := json.Marshal(e)
			b.Write(line)
			b.WriteByte('\n')
		}
		ev("start", "", "")
		failed := false
		for _, test := range tests {
			ev("run", test, "")
			ev("output", test, "=== RUN   "+test+"\n")
			if msg, ok := failing[test]; ok {
				failed = true
				ev("output", test, "    "+msg+"\n")
				ev("output", test, "--- FAIL: "+test+" (0.00s)\n")
				ev("fail", test, "")
				continue
			}
			ev("output", test, "--- PASS: "+test+" (0.00s)\n")
			ev("pass", test, "")
		}
		if failed {
			ev("output", "", "FAIL\n")
			ev("output", "", "FAIL\t"+name+"\t0.011s\n")
			ev("fail", "", "")
			return
		}
		ev("output", "", "PASS\n")
		ev("output", "", "ok  \t"+name+"\t0.009s\n")
		ev("pass", "", "")
	}
	calcFails, utilFails := map[string]string{}, map[string]string{}
	if divFails {
		calcFails["TestDiv"] = fmt.Sprintf("calc_test.go:%d: Div(1, 0) = 0, <nil>; want an error", f.DivLine)
	}
	if trimFails {
		utilFails["TestTrim"] = fmt.Sprintf(`util_test.go:%d: Trim("  a ") = "a ", want "a"`, f.TrimLine)
	}
	pkg("example.com/svc/calc", []string{"TestAdd", "TestSub", "TestMul", "TestDiv", "TestDivExact", "TestAddNegative"}, calcFails)
	pkg("example.com/svc/util", []string{"TestTrim", "TestUpper", "TestLower", "TestSplit", "TestJoin", "TestPad"}, utilFails)
	return b.String()
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "")
}
