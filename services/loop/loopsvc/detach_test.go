package loopsvc_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/enginetest"
)

// lastStatus watches a run to its end and returns how it finished.
func (e *env) lastStatus(runID string) glv1.RunStatus {
	e.t.Helper()
	evs, err := e.watch(e.ctx(), runID, 0)
	if err != nil {
		e.t.Fatal(err)
	}
	return evs[len(evs)-1].GetRunFinished().GetStatus()
}

func TestDetachedVerifyOutlivesItsStream(t *testing.T) {
	e := newEnv(t, enginetest.Step("slow", glv1.Tier_TIER_0, glv1.Phase_PHASE_TEST, 0, 300*time.Millisecond))
	ctx, cancel := context.WithCancel(e.ctx())
	stream, err := e.runs.Verify(ctx, &glv1.VerifyRequest{Snapshot: e.snapshot(fixedFiles()), Detach: true})
	if err != nil {
		t.Fatal(err)
	}
	first, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	<-e.exec.Started()
	cancel() // the caller goes away; the detached run must not notice
	if st := e.lastStatus(first.GetEvent().GetRunId()); st != glv1.RunStatus_RUN_STATUS_PASSED {
		t.Fatalf("detached run finished %s, want PASSED", st)
	}
}

func TestStartRunThenCancelRun(t *testing.T) {
	e := newEnv(t, enginetest.Step("slow", glv1.Tier_TIER_0, glv1.Phase_PHASE_TEST, 0, time.Minute))
	resp, err := e.runs.StartRun(e.ctx(), &glv1.StartRunRequest{Kind: &glv1.StartRunRequest_Verify{
		Verify: &glv1.VerifyRequest{Snapshot: e.snapshot(fixedFiles())}}})
	if err != nil {
		t.Fatal(err)
	}
	id := resp.GetRun().GetId()
	if id == "" {
		t.Fatalf("StartRun returned %v", resp.GetRun())
	}
	<-e.exec.Started() // StartRun returned; the run goes on without a stream
	c, err := e.runs.CancelRun(e.ctx(), &glv1.CancelRunRequest{RunId: id})
	if err != nil || c.GetRun().GetStatus() != glv1.RunStatus_RUN_STATUS_CANCELED {
		t.Fatalf("CancelRun = %v, %v; want the run CANCELED", c.GetRun().GetStatus(), err)
	}
	if st := e.lastStatus(id); st != glv1.RunStatus_RUN_STATUS_CANCELED {
		t.Fatalf("watched end %s", st)
	}
	again, err := e.runs.CancelRun(e.ctx(), &glv1.CancelRunRequest{RunId: id})
	if err != nil || again.GetRun().GetStatus() != glv1.RunStatus_RUN_STATUS_CANCELED {
		t.Errorf("cancelling a finished run: %v, %v", again.GetRun().GetStatus(), err)
	}
}

func TestStartRunAndCancelRunRefuseBadInput(t *testing.T) {
	e := newEnv(t, enginetest.CalcSteps()...)
	for name, tc := range map[string]struct {
		call func() error
		code codes.Code
		msg  string
	}{
		"cancel unknown": {func() error {
			_, err := e.runs.CancelRun(e.ctx(), &glv1.CancelRunRequest{RunId: "r_nope"})
			return err
		}, codes.NotFound, "ListRuns"},
		"cancel empty": {func() error {
			_, err := e.runs.CancelRun(e.ctx(), &glv1.CancelRunRequest{})
			return err
		}, codes.InvalidArgument, "run_id is empty"},
		"start nothing": {func() error {
			_, err := e.runs.StartRun(e.ctx(), &glv1.StartRunRequest{})
			return err
		}, codes.InvalidArgument, "needs verify or fix"},
		"detached client fix": {func() error {
			_, err := e.runs.StartRun(e.ctx(), &glv1.StartRunRequest{Kind: &glv1.StartRunRequest_Fix{Fix: &glv1.FixStart{
				Snapshot: e.snapshot(enginetest.CalcFiles),
				Options:  &glv1.FixOptions{Provider: &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_CLIENT}}}}})
			return err
		}, codes.InvalidArgument, "detached fix cannot use the CLIENT provider"},
	} {
		err := tc.call()
		if status.Code(err) != tc.code || !strings.Contains(status.Convert(err).Message(), tc.msg) {
			t.Errorf("%s: %v, want %s mentioning %q", name, err, tc.code, tc.msg)
		}
	}
	list, err := e.runs.ListRuns(e.ctx(), &glv1.ListRunsRequest{})
	if err != nil || len(list.GetRuns()) != 0 {
		t.Errorf("refused requests stored runs: %v %v", list.GetRuns(), err)
	}
}

// A reply sent before its PatchRequested answers that attempt; a second
// early one is refused with a PatchReplyRefused event, not dropped silently.
func TestFixReplyBeforeTheRequest(t *testing.T) {
	e := newEnv(t, enginetest.CalcSteps()...)
	stream := e.fixStream(e.ctx(), &glv1.FixOptions{}, e.snapshot(enginetest.CalcFiles))
	for _, p := range []string{enginetest.FixPatch, enginetest.NonApplyingPatch} {
		reply := &glv1.PatchReply{Attempt: 1, Patch: p}
		if err := stream.Send(&glv1.FixRequest{Msg: &glv1.FixRequest_Patch{Patch: reply}}); err != nil {
			t.Fatal(err)
		}
	}
	var refused *glv1.PatchReplyRefused
	var fin *glv1.RunFinished
	for fin == nil {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatalf("Fix stream: %v", err)
		}
		if r := resp.GetEvent().GetPatchReplyRefused(); r != nil {
			refused = r
		}
		fin = resp.GetEvent().GetRunFinished()
	}
	if fin.GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED || fin.GetMetrics().GetAttemptsToGreen() != 1 {
		t.Fatalf("finished %s after %d attempt(s)", fin.GetStatus(), fin.GetMetrics().GetAttemptsToGreen())
	}
	if refused == nil || refused.GetAttempt() != 1 || !strings.Contains(refused.GetReason(), "still waits for its request") {
		t.Fatalf("second early reply: refused event %v", refused)
	}
}

// A client provider that drops its Fix stream while a patch is requested
// cancels the run: it ends CANCELED, never as if the client had given up.
func TestFixStreamDroppedEndsCanceled(t *testing.T) {
	e := newEnv(t, enginetest.CalcSteps()...)
	ctx, cancel := context.WithCancel(e.ctx())
	stream := e.fixStream(ctx, &glv1.FixOptions{}, e.snapshot(enginetest.CalcFiles))
	var runID string
	for {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if runID == "" {
			runID = resp.GetEvent().GetRunId()
		}
		if resp.GetEvent().GetPatchRequested() != nil {
			break
		}
	}
	cancel()
	if st := e.lastStatus(runID); st != glv1.RunStatus_RUN_STATUS_CANCELED {
		t.Fatalf("dropped Fix stream: run finished %s, want CANCELED", st)
	}
}
