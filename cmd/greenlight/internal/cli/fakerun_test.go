package cli

import (
	"bytes"
	"context"
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// fakeRuns is a RunService holding finished runs: ListRuns leaves the
// results out, as the loop does; GetRun returns them whole.
type fakeRuns struct {
	glv1.UnimplementedRunServiceServer
	runs []*glv1.Run
}

func (f *fakeRuns) ListRuns(context.Context, *glv1.ListRunsRequest) (*glv1.ListRunsResponse, error) {
	resp := &glv1.ListRunsResponse{}
	for _, r := range f.runs {
		r = proto.Clone(r).(*glv1.Run)
		r.Result = nil
		resp.Runs = append(resp.Runs, r)
	}
	return resp, nil
}

func (f *fakeRuns) GetRun(_ context.Context, req *glv1.GetRunRequest) (*glv1.GetRunResponse, error) {
	for _, r := range f.runs {
		if r.GetId() == req.GetRunId() {
			return &glv1.GetRunResponse{Run: r}, nil
		}
	}
	return nil, status.Errorf(codes.NotFound, "run %q not found", req.GetRunId())
}

// startFakeRuns serves runs on a loopback port and returns its address.
func startFakeRuns(t *testing.T, runs ...*glv1.Run) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	glv1.RegisterRunServiceServer(srv, &fakeRuns{runs: runs})
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(srv.Stop)
	return ln.Addr().String()
}

// finishedRun is a finished verify run with verdict v: a pytest step with
// 2 passed and 1 failed tests when it failed.
func finishedRun(id string, v glv1.Verdict) *glv1.Run {
	st, counts := glv1.RunStatus_RUN_STATUS_PASSED, &glv1.TestCounts{Passed: 3}
	var failures []*glv1.Failure
	summary := "PASS: every check passed"
	if v == glv1.Verdict_VERDICT_FAIL {
		st, counts, summary = glv1.RunStatus_RUN_STATUS_FAILED, &glv1.TestCounts{Passed: 2, Failed: 1}, "FAIL: pytest (1 failed)"
		failures = []*glv1.Failure{{File: "tests/test_temperature.py", Line: 17, Kind: glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION,
			Message: "AssertionError: assert 'mild' == 'hot'", Test: "tests/test_temperature.py::test_feels"}}
	}
	now := timestamppb.Now()
	return &glv1.Run{Id: id, Kind: glv1.RunKind_RUN_KIND_VERIFY, Status: st, CreatedAt: now, StartedAt: now, FinishedAt: now,
		Result: &glv1.Result{Status: v, Summary: summary, Counts: counts, Level: glv1.Level_LEVEL_L4,
			Score: &glv1.Score{Total: 0.5}, Failures: failures,
			Steps: []*glv1.StepResult{{Name: "pytest", Phase: glv1.Phase_PHASE_TEST, Command: "python3 -m pytest", Counts: counts,
				Status:   map[bool]glv1.StepStatus{true: glv1.StepStatus_STEP_STATUS_FAILED, false: glv1.StepStatus_STEP_STATUS_OK}[v == glv1.Verdict_VERDICT_FAIL],
				ExitCode: map[bool]int32{true: 1, false: 0}[v == glv1.Verdict_VERDICT_FAIL]}}}}
}

// runCLI runs the CLI in-process with args and returns exit code, stdout
// and stderr.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, Env{Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}
