package gatewaysvc

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/loopfake"
)

func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestUnaryCallsPassThroughWithStatusUnchanged(t *testing.T) {
	g := startGateway(t, nil)
	ctx := testContext(t)
	want := loopfake.FailingVerifyRun("run-1", nil)
	g.loop.Put(want)

	got, err := g.runs.GetRun(ctx, &glv1.GetRunRequest{RunId: "run-1"})
	if err != nil || !proto.Equal(got.GetRun(), want) {
		t.Fatalf("GetRun = %v, %v; want the stored run unchanged", got, err)
	}
	list, err := g.runs.ListRuns(ctx, &glv1.ListRunsRequest{})
	if err != nil || len(list.GetRuns()) != 1 || list.GetRuns()[0].GetId() != "run-1" {
		t.Fatalf("ListRuns = %v, %v", list, err)
	}

	tests := []struct {
		name string
		call func() error
		code codes.Code
		msg  string
	}{
		{"unknown run", func() error {
			_, err := g.runs.GetRun(ctx, &glv1.GetRunRequest{RunId: "nope"})
			return err
		}, codes.NotFound, `run "nope" not found: list runs with ListRuns`},
		{"bad request", func() error {
			_, err := g.runs.DiscoverWorkspace(ctx, &glv1.DiscoverWorkspaceRequest{})
			return err
		}, codes.InvalidArgument, "snapshot is required: upload the workspace with BlobService.Write first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := status.Convert(tt.call())
			if st.Code() != tt.code || st.Message() != tt.msg {
				t.Fatalf("status = %v %q, want %v %q", st.Code(), st.Message(), tt.code, tt.msg)
			}
		})
	}
}

func TestMetadataAndDeadlineTravelUpstream(t *testing.T) {
	g := startGateway(t, nil)
	g.loop.Put(loopfake.PassingFixRun("run-1", nil))
	ctx, cancel := context.WithTimeout(context.Background(), 7*time.Second)
	defer cancel()
	ctx = metadata.AppendToOutgoingContext(ctx, "x-request-id", "req-42", "authorization", "Bearer whatever-0123456789", "x-secret", "s")
	if _, err := g.runs.GetRun(ctx, &glv1.GetRunRequest{RunId: "run-1"}); err != nil {
		t.Fatal(err)
	}
	md := g.loop.LastMetadata()
	if got := md.Get(RequestIDKey); len(got) != 1 || got[0] != "req-42" {
		t.Errorf("x-request-id upstream = %v, want [req-42]", got)
	}
	if got := md.Get(ForwardedForKey); len(got) != 1 || !strings.HasPrefix(got[0], "127.0.0.1:") {
		t.Errorf("x-forwarded-for upstream = %v", got)
	}
	for _, leaked := range []string{"authorization", "x-secret"} {
		if got := md.Get(leaked); len(got) > 0 {
			t.Errorf("%s leaked upstream: %v", leaked, got)
		}
	}
	dl := g.loop.LastDeadline()
	if left := time.Until(dl); dl.IsZero() || left <= 0 || left > 7*time.Second {
		t.Errorf("upstream deadline = %v (in %v), want the client's 7s deadline", dl, left)
	}

	if _, err := g.runs.GetRun(context.Background(), &glv1.GetRunRequest{RunId: "run-1"}); err != nil {
		t.Fatal(err)
	}
	if got := g.loop.LastMetadata().Get(RequestIDKey); len(got) != 1 || len(got[0]) != 24 {
		t.Errorf("generated x-request-id = %v, want one 24-hex-digit id", got)
	}
}

func TestVerifyStreamsEveryEvent(t *testing.T) {
	g := startGateway(t, nil)
	stream, err := g.runs.Verify(testContext(t), &glv1.VerifyRequest{Snapshot: &glv1.Digest{Hash: "ab", SizeBytes: 1}})
	if err != nil {
		t.Fatal(err)
	}
	var evs []*glv1.RunEvent
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, resp.GetEvent())
	}
	want := loopfake.PassingEvents("x")
	if len(evs) != len(want) {
		t.Fatalf("got %d events, want %d", len(evs), len(want))
	}
	for i, ev := range evs {
		if ev.GetSeq() != uint64(i+1) {
			t.Fatalf("event %d has seq %d", i, ev.GetSeq())
		}
	}
	if evs[len(evs)-1].GetRunFinished().GetStatus() != glv1.RunStatus_RUN_STATUS_PASSED {
		t.Fatalf("last event = %v, want RunFinished PASSED", evs[len(evs)-1])
	}
}

func TestVerifyCancellationReachesTheLoop(t *testing.T) {
	g := startGateway(t, nil)
	ctx, cancel := context.WithCancel(testContext(t))
	stream, err := g.runs.Verify(ctx, &glv1.VerifyRequest{Options: &glv1.VerifyOptions{Labels: map[string]string{loopfake.BlockLabel: "true"}}})
	if err != nil {
		t.Fatal(err)
	}
	first, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case id := <-g.loop.Cancelled():
		if id != first.GetEvent().GetRunId() {
			t.Fatalf("cancelled run %q, want %q", id, first.GetEvent().GetRunId())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the loop's Verify was not cancelled when the client went away")
	}
	for {
		_, err := stream.Recv() // events already in flight may still arrive
		if err != nil {
			if status.Code(err) != codes.Canceled {
				t.Fatalf("client Recv after cancel = %v, want Canceled", err)
			}
			break
		}
	}
}

func TestFixForwardsBothDirections(t *testing.T) {
	g := startGateway(t, nil)
	stream, err := g.runs.Fix(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	recv := func() *glv1.RunEvent {
		t.Helper()
		resp, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		return resp.GetEvent()
	}
	if err := stream.Send(&glv1.FixRequest{Msg: &glv1.FixRequest_Start{Start: &glv1.FixStart{}}}); err != nil {
		t.Fatal(err)
	}
	if ev := recv(); ev.GetRunCreated() == nil {
		t.Fatalf("first event = %v, want RunCreated", ev)
	}
	for attempt := int32(1); attempt <= 3; attempt++ {
		patch := loopfake.PatchDiff + strings.Repeat("#", int(attempt))
		if err := stream.Send(&glv1.FixRequest{Msg: &glv1.FixRequest_Patch{Patch: &glv1.PatchReply{Attempt: attempt, Patch: patch}}}); err != nil {
			t.Fatal(err)
		}
		out := recv().GetPatchEvaluated().GetOutcome()
		if out.GetAttempt() != attempt || out.GetDiff() != patch {
			t.Fatalf("attempt %d came back as %v", attempt, out)
		}
	}
	if err := stream.CloseSend(); err != nil {
		t.Fatal(err)
	}
	if ev := recv(); ev.GetRunFinished() == nil {
		t.Fatalf("after CloseSend got %v, want RunFinished", ev)
	}
	if _, err := stream.Recv(); !errors.Is(err, io.EOF) {
		t.Fatalf("end of stream = %v, want EOF", err)
	}
}

func TestFixProtocolErrorPassesThrough(t *testing.T) {
	g := startGateway(t, nil)
	stream, err := g.runs.Fix(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.Send(&glv1.FixRequest{Msg: &glv1.FixRequest_Patch{Patch: &glv1.PatchReply{}}}); err != nil {
		t.Fatal(err)
	}
	_, err = stream.Recv()
	if st := status.Convert(err); st.Code() != codes.InvalidArgument || !strings.Contains(st.Message(), "must be a FixStart") {
		t.Fatalf("Recv = %v, want the loop's InvalidArgument", err)
	}
}
